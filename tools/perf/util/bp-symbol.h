/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bp-symbol.h: hardware breakpoints on symbols,
 * 'mem:SYMBOL[+OFFSET][/LEN][:ACCESS]' (kernel) and
 * 'mem:SYMBOL[#N]@FILE[+OFFSET][/LEN][:ACCESS]' (a program or library)
 */
#ifndef __PERF_BP_SYMBOL_H
#define __PERF_BP_SYMBOL_H

#include <linux/types.h>

struct evlist;
struct list_head;
struct parse_events_state;
struct target;

/* A symbolic breakpoint, as written after 'mem:' */
struct bp_symbol {
	char	*name;
	char	*file;		/* NULL: a kernel symbol */
	int	sym_idx;	/* #N: -1 not given, 0 the global one, N the N'th */
	int	file_pos;	/* where FILE starts in the spec, or -1 */
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

/*
 * The parse-events hook: 'mem:' followed by @spec, found at @column, with
 * the event's /terms/ in @head_config (or NULL).
 */
int bp_symbol__add_event(struct parse_events_state *parse_state,
			 struct list_head *list, const char *spec,
			 struct list_head *head_config, int column);

/*
 * Once the target is known (after evlist__create_maps()): give the
 * breakpoints on symbols of a FILE the address FILE's symbol has in the
 * target's processes, or refuse (with a message) when there is no such
 * single address: system-wide, a shared library of the workload (mapped
 * after perf starts it). A PIE workload is relocated at its exec, by
 * bp_symbol__start_workload(). A no-op without such breakpoints.
 */
int bp_symbol__relocate(struct evlist *evlist, struct target *target);

/*
 * evlist__start_workload(), and for breakpoints on symbols of a
 * position-independent workload (which bp_symbol__relocate() made stop at
 * its exec, PTRACE_TRACEME): wait for that stop, move the breakpoints to
 * where the program was mapped (PERF_EVENT_IOC_MODIFY_ATTRIBUTES), and let
 * it run. On failure, the workload is killed.
 */
int bp_symbol__start_workload(struct evlist *evlist);

#endif /* __PERF_BP_SYMBOL_H */
