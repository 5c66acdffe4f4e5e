/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bp-symbol.h: hardware breakpoints on kernel symbols,
 * 'mem:SYMBOL[+OFFSET][/LEN][:ACCESS]'
 */
#ifndef __PERF_BP_SYMBOL_H
#define __PERF_BP_SYMBOL_H

#include <linux/types.h>

struct list_head;
struct parse_events_error;

/* A symbolic breakpoint, as written after 'mem:' */
struct bp_symbol {
	char	*name;
	u64	offset;
	u64	len;		/* 0: not given */
	char	access[4];	/* "" (not given) or [rwx]{1,3} */
	int	len_pos;	/* where '/LEN' starts in the spec, or -1 */
};

int bp_symbol__parse(const char *spec, struct bp_symbol *bp);

/*
 * Resolve @bp through @kallsyms (a /proc/kallsyms file) and check the
 * range it covers: on success, *addr and *len are what the breakpoint
 * watches. On failure, *msg is an allocated message saying why and *pos
 * the offset in the spec it refers to.
 */
int bp_symbol__resolve(struct bp_symbol *bp, const char *kallsyms,
		       const char *arch, u64 *addr, u64 *len,
		       char **msg, int *pos);

/* The parse-events hook: 'mem:' followed by @spec, found at @column. */
int bp_symbol__add_event(struct list_head *list, int *idx, const char *spec,
			 struct parse_events_error *err, int column);

#endif /* __PERF_BP_SYMBOL_H */
