// SPDX-License-Identifier: GPL-2.0
/*
 * bp-symbol.c: hardware breakpoints on kernel symbols.
 *
 * 'mem:SYMBOL[+OFFSET][/LEN][:ACCESS]' watches LEN bytes at SYMBOL+OFFSET,
 * SYMBOL's address coming from /proc/kallsyms. The symbol must name one
 * address, kallsyms must show it (kptr_restrict), the range must stay
 * inside the symbol (whose size is the distance to the next symbol in
 * kallsyms) and it must be a range the architecture's debug registers can
 * watch. When any of this does not hold, the message says which.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "symbol/kallsyms.h"
#include "bp-symbol.h"
#include "debug.h"
#include "env.h"
#include "parse-events.h"

#define BP_SYMBOL_SHOW_MAX	4	/* addresses listed for an ambiguous name */

int bp_symbol__parse(const char *spec, struct bp_symbol *bp)
{
	const char *p = spec + strcspn(spec, "+/:");
	char *end;

	memset(bp, 0, sizeof(*bp));
	bp->len_pos = -1;
	if (p == spec)
		return -EINVAL;
	bp->name = strndup(spec, p - spec);
	if (!bp->name)
		return -ENOMEM;

	if (*p == '+') {
		bp->offset = strtoull(p + 1, &end, 0);
		if (end == p + 1)
			goto out_inval;
		p = end;
	}
	if (*p == '/') {
		bp->len_pos = p - spec;
		bp->len = strtoull(p + 1, &end, 0);
		if (end == p + 1)
			goto out_inval;
		p = end;
	}
	if (*p == ':') {
		size_t n = strspn(p + 1, "rwx");

		if (n == 0 || n >= sizeof(bp->access) || p[1 + n])
			goto out_inval;
		memcpy(bp->access, p + 1, n);
		p += 1 + n;
	}
	if (*p == '\0')
		return 0;
out_inval:
	zfree(&bp->name);
	return -EINVAL;
}

struct bp_symbol_lookup {
	const char	*name;
	u64		addr[BP_SYMBOL_SHOW_MAX];
	int		nr_addr;	/* distinct addresses of name */
	u64		last_addr;	/* the last one found */
	bool		any_nonzero;	/* kallsyms shows addresses at all */
	/* second pass: the symbol that follows addr[0] */
	u64		next_addr;
	char		next_name[KSYM_NAME_LEN + 1];
};

/* kallsyms lines of modules end in "\t[module]" */
static size_t ksym_name_len(const char *name)
{
	return strcspn(name, "\t ");
}

static int bp_symbol__find(void *arg, const char *name, char type __maybe_unused,
			   u64 start)
{
	struct bp_symbol_lookup *l = arg;
	size_t len = ksym_name_len(name);
	int i;

	if (start)
		l->any_nonzero = true;
	if (len != strlen(l->name) || strncmp(name, l->name, len))
		return 0;
	/* an alias line at the same address is the same symbol */
	if (l->nr_addr && start == l->last_addr)
		return 0;
	for (i = 0; i < l->nr_addr && i < BP_SYMBOL_SHOW_MAX; i++) {
		if (l->addr[i] == start)
			return 0;
	}
	if (l->nr_addr < BP_SYMBOL_SHOW_MAX)
		l->addr[l->nr_addr] = start;
	l->last_addr = start;
	l->nr_addr++;
	return 0;
}

static int bp_symbol__find_next(void *arg, const char *name,
				char type __maybe_unused, u64 start)
{
	struct bp_symbol_lookup *l = arg;
	size_t len = min(ksym_name_len(name), sizeof(l->next_name) - 1);

	if (start <= l->addr[0] || (l->next_addr && start >= l->next_addr))
		return 0;
	l->next_addr = start;
	memcpy(l->next_name, name, len);
	l->next_name[len] = '\0';
	return 0;
}

static int read_kptr_restrict(void)
{
	FILE *f = fopen("/proc/sys/kernel/kptr_restrict", "r");
	int val = -1;

	if (f) {
		if (fscanf(f, "%d", &val) != 1)
			val = -1;
		fclose(f);
	}
	return val;
}

/* What the debug registers of an architecture can watch */
static const char x86_data[] =
	"a data breakpoint covers 1, 2, 4 or 8 bytes, aligned to its length";
static const char x86_exec[] =
	"an instruction breakpoint's length is a long's (leave /LEN out)";
static const char ppc_data[] =
	"a data breakpoint stays within one 512-byte block (DAWR), one doubleword without DAWR";
static const char ppc_exec[] = "its breakpoints watch data accesses (r, w, rw) only";
static const char any_data[] = "a breakpoint covers 1 to 8 bytes";

/* Can @arch's debug registers watch @len bytes at @addr? NULL if so. */
static char *bp_symbol__check_arch(const char *arch, u64 addr, u64 len,
				   bool exec)
{
	const char *rule = NULL;
	char *msg;

	if (!strcmp(arch, "x86")) {
		if (exec && len != sizeof(long))
			rule = x86_exec;
		else if (!exec && ((len != 1 && len != 2 && len != 4 && len != 8) ||
				   (addr & (len - 1))))
			rule = x86_data;
	} else if (!strcmp(arch, "powerpc")) {
		if (exec)
			rule = ppc_exec;
		else if (len == 0 || len > 512 ||
			 (addr & ~511ULL) != ((addr + len - 1) & ~511ULL))
			rule = ppc_data;
	} else if (len < HW_BREAKPOINT_LEN_1 || len > HW_BREAKPOINT_LEN_8) {
		rule = any_data;
	}
	if (!rule)
		return NULL;
	if (asprintf(&msg, "%s cannot watch %" PRIu64 " bytes %s %#" PRIx64 ": %s",
		     arch, len, exec ? "for execution at" : "at", addr, rule) < 0)
		return NULL;
	return msg;
}

static char *ksym_list(struct bp_symbol_lookup *l)
{
	char buf[BP_SYMBOL_SHOW_MAX * 24 + 8] = "";
	size_t n = 0;
	int i;

	for (i = 0; i < l->nr_addr && i < BP_SYMBOL_SHOW_MAX; i++)
		n += scnprintf(buf + n, sizeof(buf) - n, "%s%#" PRIx64,
			       i ? ", " : "", l->addr[i]);
	if (l->nr_addr > BP_SYMBOL_SHOW_MAX)
		scnprintf(buf + n, sizeof(buf) - n, ", ...");
	return strdup(buf);
}

int bp_symbol__resolve(struct bp_symbol *bp, const char *kallsyms,
		       const char *arch, u64 *addr, u64 *len,
		       char **msg, int *pos)
{
	struct bp_symbol_lookup l = { .name = bp->name, };
	bool exec = strchr(bp->access, 'x');
	u64 size = 0, end;
	char *list;
	int ret;

	*msg = NULL;
	*pos = 0;
	if (kallsyms__parse(kallsyms, &l, bp_symbol__find) < 0) {
		ret = asprintf(msg, "cannot read %s to resolve '%s': %s",
			       kallsyms, bp->name, strerror(errno));
		goto out_err;
	}
	if (l.nr_addr == 0) {
		ret = asprintf(msg, "symbol '%s' is not in %s", bp->name, kallsyms);
		goto out_err;
	}
	if (!l.any_nonzero) {
		ret = asprintf(msg, "%s hides kernel addresses (%s=%d): cannot resolve '%s'",
			       kallsyms, "all zero, kernel.kptr_restrict",
			       read_kptr_restrict(), bp->name);
		goto out_err;
	}
	if (l.nr_addr > 1) {
		list = ksym_list(&l);
		ret = asprintf(msg, "symbol '%s' is ambiguous: %d addresses in %s (%s)",
			       bp->name, l.nr_addr, kallsyms, list ?: "");
		free(list);
		goto out_err;
	}
	if (l.addr[0] == 0) {
		ret = asprintf(msg, "symbol '%s' has address 0 in %s (a per-CPU variable?)",
			       bp->name, kallsyms);
		goto out_err;
	}

	/* The symbol ends where the next one starts. */
	kallsyms__parse(kallsyms, &l, bp_symbol__find_next);
	if (l.next_addr)
		size = l.next_addr - l.addr[0];

	*addr = l.addr[0] + bp->offset;
	*len = bp->len;
	if (!*len && exec) {
		*len = sizeof(long);
	} else if (!*len) {
		/* as much of the symbol as one aligned breakpoint covers */
		u64 room = size > bp->offset ? size - bp->offset : 0;

		*len = HW_BREAKPOINT_LEN_8;
		if (size && room < HW_BREAKPOINT_LEN_8)
			*len = room >= 4 ? 4 : room >= 2 ? 2 : 1;
		while (*len > 1 && (*addr & (*len - 1)))
			*len /= 2;
	}

	end = bp->offset + *len;
	/* an instruction breakpoint watches its first byte only */
	if (size && (exec ? bp->offset >= size : end > size)) {
		char what[KSYM_NAME_LEN + 128];
		int n;

		n = scnprintf(what, sizeof(what), "bytes %" PRIu64 "-%" PRIu64 " of a %" PRIu64
			      "-byte symbol", bp->offset, end - 1, size);
		scnprintf(what + n, sizeof(what) - n, " (the next symbol, %s, is at %#" PRIx64 ")",
			  l.next_name, l.next_addr);
		ret = asprintf(msg, "'%s+%" PRIu64 "/%" PRIu64 "' goes past the end of %s: %s",
			       bp->name, bp->offset, *len, bp->name, what);
		goto out_err;
	}

	*msg = bp_symbol__check_arch(arch, *addr, *len, exec);
	if (*msg) {
		*pos = bp->len_pos >= 0 ? bp->len_pos + 1 : 0;
		return -EINVAL;
	}
	return 0;

out_err:
	if (ret < 0)
		*msg = NULL;
	return -EINVAL;
}

int bp_symbol__add_event(struct list_head *list, int *idx, const char *spec,
			 struct parse_events_error *err, int column)
{
	const char *usage = "expected SYMBOL[+OFFSET][/LEN][:ACCESS]";
	struct bp_symbol bp;
	char *msg = NULL;
	u64 addr, len;
	int pos = 0, ret;

	ret = bp_symbol__parse(spec, &bp);
	if (ret) {
		if (err)
			parse_events_error__handle(err, column, strdup(usage), NULL);
		return ret;
	}

	ret = bp_symbol__resolve(&bp, "/proc/kallsyms", perf_env__arch(NULL),
				 &addr, &len, &msg, &pos);
	if (ret) {
		if (err)
			parse_events_error__handle(err, column + pos, msg ?:
						   strdup("cannot resolve the breakpoint's symbol"),
						   NULL);
		else
			free(msg);
		goto out;
	}
	pr_debug("mem:%s: %" PRIu64 " bytes at %#" PRIx64 "\n", spec, len, addr);
	ret = parse_events_add_breakpoint(list, idx, addr,
					  bp.access[0] ? bp.access : NULL, len);
out:
	free(bp.name);
	return ret;
}
