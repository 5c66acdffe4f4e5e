// SPDX-License-Identifier: GPL-2.0
/*
 * bp-symbol.c: hardware breakpoints on symbols.
 *
 * 'mem:SYMBOL[+OFFSET][/LEN][:ACCESS]' watches LEN bytes at SYMBOL+OFFSET,
 * SYMBOL's address coming from /proc/kallsyms. The symbol must name one
 * address, kallsyms must show it (kptr_restrict), the range must stay
 * inside the symbol (whose size is the distance to the next symbol in
 * kallsyms) and it must be a range the architecture's debug registers can
 * watch. When any of this does not hold, the message says which.
 *
 * 'mem:SYMBOL[#N]@FILE[+OFFSET][/LEN][:ACCESS]' takes SYMBOL from the ELF
 * symbol table of FILE, a program or a shared library (.symtab, or
 * .dynsym when .symtab lacks it), #N picking among same-named symbols as
 * --filter's address filters do (the N'th in address order; #0, #g or #G
 * the global one). Its size is st_size. The address is st_value for an
 * ET_EXEC file; for an ET_DYN file (PIE, shared library) it is known once
 * the file is mapped: bp_symbol__relocate() reads /proc/PID/maps of the
 * target's threads (-p, -t) and refuses what it cannot resolve.
 */
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "symbol/kallsyms.h"
#include "bp-symbol.h"
#include "debug.h"
#include "env.h"
#include "evlist.h"
#include "evsel.h"
#include "parse-events.h"
#include "target.h"
#include <perf/threadmap.h>
#include <internal/xyarray.h>
#ifdef HAVE_LIBELF_SUPPORT
#include <gelf.h>
#endif

#define BP_SYMBOL_SHOW_MAX	4	/* addresses listed for an ambiguous name */

/* A number that is all of [p, end): strtoull()'s forms, no sign */
static bool bp_symbol__number(const char *p, const char *end, u64 *val)
{
	char *e;

	if (p == end || *p < '0' || *p > '9')
		return false;
	errno = 0;
	*val = strtoull(p, &e, 0);
	return !errno && e == end;
}

/*
 * SYMBOL[#N]@FILE[+OFFSET][/LEN]: FILE is what follows '@' up to the first
 * ':' (or the end). A '/' followed by a number at the end of it is LEN,
 * then a '+' followed by a number at the end of what is left is OFFSET;
 * FILE is the rest.
 */
static int bp_symbol__parse_file(const char *spec, const char *at, struct bp_symbol *bp,
				 const char **endp)
{
	const char *start = at + 1, *end = start + strcspn(start, ":"), *p;

	bp->file_pos = start - spec;
	p = memrchr(start, '/', end - start);
	if (p && bp_symbol__number(p + 1, end, &bp->len)) {
		bp->len_pos = p - spec;
		end = p;
	}
	p = memrchr(start, '+', end - start);
	if (p && bp_symbol__number(p + 1, end, &bp->offset))
		end = p;
	if (end == start)
		return -EINVAL;
	bp->file = strndup(start, end - start);
	if (!bp->file)
		return -ENOMEM;
	*endp = start + strcspn(start, ":");
	return 0;
}

int bp_symbol__parse(const char *spec, struct bp_symbol *bp)
{
	const char *p = spec + strcspn(spec, "+/:@#");
	char *end;
	int ret = -EINVAL;

	memset(bp, 0, sizeof(*bp));
	bp->len_pos = -1;
	bp->file_pos = -1;
	bp->sym_idx = -1;
	if (p == spec)
		return -EINVAL;
	bp->name = strndup(spec, p - spec);
	if (!bp->name)
		return -ENOMEM;

	if (*p == '#') {
		p++;
		if (*p == 'g' || *p == 'G') {
			bp->sym_idx = 0;
			p++;
		} else {
			unsigned long n;

			errno = 0;
			n = strtoul(p, &end, 0);
			if (errno || end == p || n > INT_MAX || *p < '0' || *p > '9')
				goto out_inval;
			bp->sym_idx = n;
			p = end;
		}
		if (*p != '@')
			goto out_inval;
	}
	if (*p == '@') {
		ret = bp_symbol__parse_file(spec, p, bp, &p);
		if (ret)
			goto out_inval;
		ret = -EINVAL;
		goto access;
	}
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
access:
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
	zfree(&bp->file);
	return ret;
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

/*
 * The range @bp watches in a symbol at @sym_addr of @size bytes (0: not
 * known), @next_desc saying what ends it: *addr and *len, or a message.
 */
static int bp_symbol__range(struct bp_symbol *bp, const char *arch, u64 sym_addr,
			    u64 size, const char *next_desc, u64 *addr, u64 *len,
			    char **msg, int *pos)
{
	bool exec = strchr(bp->access, 'x');
	u64 end;

	*msg = NULL;
	*pos = 0;
	*addr = sym_addr + bp->offset;
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
		if (asprintf(msg, "'%s+%" PRIu64 "/%" PRIu64 "' goes past the end of %s: bytes %"
			     PRIu64 "-%" PRIu64 " of a %" PRIu64 "-byte symbol%s",
			     bp->name, bp->offset, *len, bp->name, bp->offset, end - 1,
			     size, next_desc) < 0)
			*msg = NULL;
		return -EINVAL;
	}

	*msg = bp_symbol__check_arch(arch, *addr, *len, exec);
	if (*msg) {
		*pos = bp->len_pos >= 0 ? bp->len_pos + 1 : 0;
		return -EINVAL;
	}
	return 0;
}

int bp_symbol__resolve(struct bp_symbol *bp, const char *kallsyms,
		       const char *arch, u64 *addr, u64 *len,
		       char **msg, int *pos)
{
	struct bp_symbol_lookup l = { .name = bp->name, };
	char next[KSYM_NAME_LEN + 64] = "";
	u64 size = 0;
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
	if (l.next_addr) {
		size = l.next_addr - l.addr[0];
		scnprintf(next, sizeof(next), " (the next symbol, %s, is at %#" PRIx64 ")",
			  l.next_name, l.next_addr);
	}
	return bp_symbol__range(bp, arch, l.addr[0], size, next, addr, len, msg, pos);

out_err:
	if (ret < 0)
		*msg = NULL;
	return -EINVAL;
}

/* A breakpoint on a symbol of a FILE, waiting for its target */
struct bp_user {
	struct list_head node;
	struct evsel	*evsel;
	char		*spec;
	char		*file;
	char		*real;		/* FILE's realpath, as /proc/PID/maps names it */
	dev_t		dev;
	ino_t		ino;
	u64		link_addr;	/* the address in FILE's own terms */
	u64		first_vaddr;	/* FILE's first PT_LOAD */
	u64		first_offset;
	unsigned int	e_type;
	bool		pie;
	bool		at_exec;	/* a PIE workload: relocated at its exec */
};

static LIST_HEAD(bp_user_list);

#define BP_USER_SHOW_MAX	8	/* candidates listed for an ambiguous name */

#ifdef HAVE_LIBELF_SUPPORT
struct bp_elf_sym {
	u64		addr;
	u64		size;
	unsigned char	bind;
	unsigned char	type;
};

static int bp_elf_sym__cmp(const void *a, const void *b)
{
	const struct bp_elf_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The defined symbols named @name in the symbol table @scn */
static int bp_elf__collect(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, const char *name,
			   struct bp_elf_sym **syms, int *nr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n;

	if (!data || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		struct bp_elf_sym *tmp;
		const char *sname;
		GElf_Sym sym;
		int j;

		if (!gelf_getsym(data, i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    GELF_ST_TYPE(sym.st_info) == STT_SECTION ||
		    GELF_ST_TYPE(sym.st_info) == STT_FILE)
			continue;
		sname = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!sname || strcmp(sname, name))
			continue;
		/* one address is one symbol: aliases, weak and global twins */
		for (j = 0; j < *nr; j++) {
			if ((*syms)[j].addr == sym.st_value)
				break;
		}
		if (j < *nr) {
			if (GELF_ST_BIND(sym.st_info) == STB_GLOBAL)
				(*syms)[j].bind = STB_GLOBAL;
			continue;
		}
		tmp = realloc(*syms, (*nr + 1) * sizeof(**syms));
		if (!tmp)
			return -ENOMEM;
		*syms = tmp;
		tmp[*nr].addr = sym.st_value;
		tmp[*nr].size = sym.st_size;
		tmp[*nr].bind = GELF_ST_BIND(sym.st_info);
		tmp[*nr].type = GELF_ST_TYPE(sym.st_info);
		(*nr)++;
	}
	return 0;
}

/* The symbols named @name: .symtab's, or .dynsym's if .symtab has none */
static int bp_elf__find(Elf *elf, const char *name, struct bp_elf_sym **syms, int *nr,
			bool *any_table)
{
	GElf_Word types[] = { SHT_SYMTAB, SHT_DYNSYM };
	size_t t;

	*any_table = false;
	for (t = 0; t < ARRAY_SIZE(types) && !*nr; t++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			if (!gelf_getshdr(scn, &sh) || sh.sh_type != types[t])
				continue;
			*any_table = true;
			if (bp_elf__collect(elf, scn, &sh, name, syms, nr))
				return -ENOMEM;
		}
	}
	if (*nr > 1)
		qsort(*syms, *nr, sizeof(**syms), bp_elf_sym__cmp);
	return 0;
}

static bool bp_elf__pie(Elf *elf, bool has_interp)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		GElf_Dyn dyn;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			if (gelf_getdyn(data, i, &dyn) && dyn.d_tag == DT_FLAGS_1)
				return dyn.d_un.d_val & DF_1_PIE;
		}
	}
	/* linkers older than DF_1_PIE: a PIE asks for a loader, a library not */
	return has_interp;
}

static char *bp_elf__list(struct bp_elf_sym *syms, int nr)
{
	char buf[BP_USER_SHOW_MAX * 48 + 8] = "";
	size_t n = 0;
	int i;

	for (i = 0; i < nr && i < BP_USER_SHOW_MAX; i++)
		n += scnprintf(buf + n, sizeof(buf) - n, "%s#%d %#" PRIx64 " (%s, %" PRIu64
			       " bytes)", i ? ", " : "", i + 1, syms[i].addr,
			       syms[i].bind == STB_GLOBAL ? "global" :
			       syms[i].bind == STB_WEAK ? "weak" : "local", syms[i].size);
	if (nr > BP_USER_SHOW_MAX)
		scnprintf(buf + n, sizeof(buf) - n, ", ...");
	return strdup(buf);
}

/* Pick the symbol @bp names among @syms, or say why not (NULL). */
static struct bp_elf_sym *bp_elf__pick(struct bp_symbol *bp, struct bp_elf_sym *syms,
				       int nr, char **msg)
{
	struct bp_elf_sym *pick = NULL;
	int i, nr_global = 0;
	char *list;

	if (bp->sym_idx > 0) {
		if (bp->sym_idx <= nr)
			return &syms[bp->sym_idx - 1];
		if (asprintf(msg, "%s has %d symbol%s named '%s': #%d is not one of #1-#%d",
			     bp->file, nr, nr > 1 ? "s" : "", bp->name, bp->sym_idx, nr) < 0)
			*msg = NULL;
		return NULL;
	}
	if (bp->sym_idx < 0 && nr == 1)
		return &syms[0];
	for (i = 0; bp->sym_idx == 0 && i < nr; i++) {
		if (syms[i].bind == STB_GLOBAL) {
			pick = &syms[i];
			nr_global++;
		}
	}
	if (nr_global == 1)
		return pick;
	list = bp_elf__list(syms, nr);
	if (bp->sym_idx == 0 && !nr_global) {
		if (asprintf(msg,
			     "%s has no global symbol named '%s', only: %s; pick one with %s#N@%s",
			     bp->file, bp->name, list ?: "", bp->name, bp->file) < 0)
			*msg = NULL;
	} else if (asprintf(msg,
			    "symbol '%s' is ambiguous: %d %ssymbols in %s: %s; pick one with %s#N@%s%s",
			    bp->name, bp->sym_idx == 0 ? nr_global : nr,
			    bp->sym_idx == 0 ? "global " : "", bp->file, list ?: "",
			    bp->name, bp->file,
			    bp->sym_idx == 0 ? "" : " (#g: the global one)") < 0) {
		*msg = NULL;
	}
	free(list);
	return NULL;
}

/*
 * Resolve @bp, a symbol of bp->file, into *addr and *len (FILE's own
 * addresses) and what bp_symbol__relocate() needs (@u).
 */
static int bp_symbol__resolve_file(struct bp_symbol *bp, const char *arch, struct bp_user *u,
				   u64 *addr, u64 *len, char **msg, int *pos)
{
	struct bp_elf_sym *syms = NULL, *sym;
	bool any_table, has_interp = false, in_load = false;
	int fd, nr = 0, ret = -EINVAL;
	size_t i, nr_phdr;
	Elf *elf = NULL;
	GElf_Ehdr eh;
	struct stat st;

	*msg = NULL;
	*pos = bp->file_pos;
	fd = open(bp->file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		/* 'mem:x@./app/aux-action=resume/' reads the terms as FILE */
		if (asprintf(msg, "cannot open %s: %s%s", bp->file, strerror(errno),
			     strchr(bp->file, '=') ?
			     " (terms after @FILE need :ACCESS first: SYMBOL@FILE:rw/terms/)" :
			     "") < 0)
			*msg = NULL;
		goto out;
	}
	u->dev = st.st_dev;
	u->ino = st.st_ino;
	u->real = realpath(bp->file, NULL);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		if (asprintf(msg, "%s is not an ELF file", bp->file) < 0)
			*msg = NULL;
		goto out;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		if (asprintf(msg, "%s is neither an executable nor a shared library (ELF type %d)",
			     bp->file, eh.e_type) < 0)
			*msg = NULL;
		goto out;
	}
	u->e_type = eh.e_type;

	*pos = 0;
	if (bp_elf__find(elf, bp->name, &syms, &nr, &any_table)) {
		ret = -ENOMEM;
		goto out;
	}
	if (!any_table) {
		if (asprintf(msg, "%s has no symbol table (.symtab, .dynsym)", bp->file) < 0)
			*msg = NULL;
		goto out;
	}
	if (!nr) {
		if (asprintf(msg, "symbol '%s' is not in %s's symbol table",
			     bp->name, bp->file) < 0)
			*msg = NULL;
		goto out;
	}
	sym = bp_elf__pick(bp, syms, nr, msg);
	if (!sym)
		goto out;
	if (sym->type == STT_TLS) {
		if (asprintf(msg,
			     "'%s' in %s is thread-local: each thread has its own, at no one address",
			     bp->name, bp->file) < 0)
			*msg = NULL;
		goto out;
	}

	if (elf_getphdrnum(elf, &nr_phdr))
		nr_phdr = 0;
	u->first_vaddr = ~0ULL;
	for (i = 0; i < nr_phdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph))
			continue;
		if (ph.p_type == PT_INTERP)
			has_interp = true;
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr < u->first_vaddr) {
			u->first_vaddr = ph.p_vaddr;
			u->first_offset = ph.p_offset;
		}
		if (sym->addr >= ph.p_vaddr && sym->addr < ph.p_vaddr + ph.p_memsz)
			in_load = true;
	}
	if (!in_load) {
		if (asprintf(msg, "'%s' in %s is at %#" PRIx64 ", in none of its loadable segments",
			     bp->name, bp->file, sym->addr) < 0)
			*msg = NULL;
		goto out;
	}
	u->pie = eh.e_type == ET_DYN && bp_elf__pie(elf, has_interp);
	ret = bp_symbol__range(bp, arch, sym->addr, sym->size, "", addr, len, msg, pos);
out:
	free(syms);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return ret;
}
#else
static int bp_symbol__resolve_file(struct bp_symbol *bp, const char *arch __maybe_unused,
				   struct bp_user *u __maybe_unused, u64 *addr __maybe_unused,
				   u64 *len __maybe_unused, char **msg, int *pos)
{
	*pos = bp->file_pos;
	if (asprintf(msg, "perf was built without libelf (NO_LIBELF): cannot read %s's symbols",
		     bp->file) < 0)
		*msg = NULL;
	return -EINVAL;
}
#endif /* HAVE_LIBELF_SUPPORT */

static void bp_user__delete(struct bp_user *u)
{
	if (!u)
		return;
	free(u->spec);
	free(u->file);
	free(u->real);
	free(u);
}

/*
 * The address of @u in the process of thread @tid: FILE's load bias from
 * the mapping of its first PT_LOAD in /proc/TID/maps.
 */
static int bp_user__address(struct bp_user *u, pid_t tid, u64 *addr, char **msg)
{
	u64 page = sysconf(_SC_PAGESIZE), want = u->first_offset & ~(page - 1);
	u64 bias = 0;
	int nr_bias = 0, ret = -EINVAL;
	bool mapped = false;
	char path[64], *line = NULL;
	size_t size = 0;
	FILE *f;

	*msg = NULL;
	scnprintf(path, sizeof(path), "/proc/%d/maps", tid);
	f = fopen(path, "r");
	if (!f) {
		if (asprintf(msg, "cannot read %s: %s", path, strerror(errno)) < 0)
			*msg = NULL;
		return -EINVAL;
	}
	while (getline(&line, &size, f) > 0) {
		unsigned long long start, end, off, ino;
		unsigned int maj, min;
		int n = 0;
		char *name;

		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu %n", &start, &end, &off,
			   &maj, &min, &ino, &n) != 6 || !n)
			continue;
		name = line + n;
		name[strcspn(name, "\n")] = '\0';
		/* overlayfs shows the underlying inode here: the path will do */
		if (!(ino == u->ino && makedev(maj, min) == u->dev) &&
		    !(u->real && !strcmp(name, u->real)))
			continue;
		mapped = true;
		if (off != want)
			continue;
		if (nr_bias && start - (u->first_vaddr & ~(page - 1)) == bias)
			continue;
		bias = start - (u->first_vaddr & ~(page - 1));
		nr_bias++;
	}
	free(line);
	fclose(f);

	if (!mapped || (u->e_type == ET_DYN && !nr_bias)) {
		if (asprintf(msg, "%s is not mapped in process %d", u->file, tid) < 0)
			*msg = NULL;
	} else if (u->e_type == ET_EXEC) {
		*addr = u->link_addr;
		ret = 0;
	} else if (nr_bias > 1) {
		if (asprintf(msg, "%s is mapped %d times in process %d: at which one?",
			     u->file, nr_bias, tid) < 0)
			*msg = NULL;
	} else {
		*addr = u->link_addr + bias;
		ret = 0;
	}
	return ret;
}

static int bp_user__relocate(struct bp_user *u, struct evlist *evlist,
			     struct target *target)
{
	struct perf_thread_map *threads = evlist->core.threads;
	const char *what = u->e_type == ET_EXEC ? "an executable" :
			   u->pie ? "a position-independent executable" : "a shared library";
	u64 addr = 0, a;
	pid_t tid, first = -1;
	char *msg = NULL;
	int i;

	if (target->uid_str || (!target->pid && !target->tid && target__has_cpu(target))) {
		pr_err("mem:%s: a symbol of %s is at an address of one process: %s\n",
		       u->spec, u->file,
		       "give the process with -p PID or -t TID, or run it as the workload, not -a, -C or -u");
		return -EINVAL;
	}
	if (!target->pid && !target->tid) {
		/* the workload: perf opens the events before it execs */
		if (u->e_type == ET_EXEC)
			return 0;
		if (u->pie) {
			/* the child stops at exec: bp_symbol__start_workload() */
			evlist->workload.stop_at_exec = true;
			u->at_exec = true;
			return 0;
		}
		pr_err("mem:%s: %s is %s, %s\n", u->spec, u->file, what,
		       "mapped by the dynamic loader after the workload starts: attach with -p PID to a process that has it mapped");
		return -EINVAL;
	}
	for (i = 0; i < perf_thread_map__nr(threads); i++) {
		tid = perf_thread_map__pid(threads, i);
		if (tid <= 0)
			continue;
		if (bp_user__address(u, tid, &a, &msg)) {
			pr_err("mem:%s: %s\n", u->spec, msg ?: "cannot find its address");
			free(msg);
			return -EINVAL;
		}
		if (first >= 0 && a != addr) {
			pr_err("mem:%s: %s is at %#" PRIx64 " in thread %d and at %#" PRIx64
			       " in thread %d: trace one process at a time\n",
			       u->spec, u->file, addr, first, a, tid);
			return -EINVAL;
		}
		addr = a;
		if (first < 0)
			first = tid;
	}
	if (first < 0) {
		pr_err("mem:%s: no thread to look %s up in\n", u->spec, u->file);
		return -EINVAL;
	}
	pr_debug("mem:%s: %s (%s) at %#" PRIx64 " in thread %d\n", u->spec, u->file, what,
		 addr, first);
	u->evsel->core.attr.bp_addr = addr;
	return 0;
}

int bp_symbol__relocate(struct evlist *evlist, struct target *target)
{
	struct bp_user *u;
	struct evsel *evsel;

	list_for_each_entry(u, &bp_user_list, node) {
		evlist__for_each_entry(evlist, evsel) {
			if (evsel != u->evsel ||
			    evsel->core.attr.type != PERF_TYPE_BREAKPOINT ||
			    evsel->core.attr.bp_addr != u->link_addr)
				continue;
			if (bp_user__relocate(u, evlist, target))
				return -EINVAL;
		}
	}
	return 0;
}

int bp_symbol__add_event(struct parse_events_state *parse_state,
			 struct list_head *list, const char *spec,
			 struct list_head *head_config, int column)
{
	const char *usage = "expected SYMBOL[+OFFSET][/LEN][:ACCESS] or SYMBOL[#N]@FILE[...]";
	struct parse_events_error *err = parse_state->error;
	struct bp_user *u = NULL;
	struct evsel *evsel;
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

	if (bp.file) {
		ret = -ENOMEM;
		u = zalloc(sizeof(*u));
		if (!u)
			goto out;
		ret = bp_symbol__resolve_file(&bp, perf_env__arch(NULL), u, &addr, &len,
					      &msg, &pos);
	} else {
		ret = bp_symbol__resolve(&bp, "/proc/kallsyms", perf_env__arch(NULL),
					 &addr, &len, &msg, &pos);
	}
	if (ret) {
		if (err)
			parse_events_error__handle(err, column + pos, msg ?:
						   strdup("cannot resolve the breakpoint's symbol"),
						   NULL);
		else
			free(msg);
		goto out;
	}
	pr_debug("mem:%s: %" PRIu64 " bytes at %#" PRIx64 "%s\n", spec, len, addr,
		 u && u->e_type == ET_DYN ? " in the file, to be relocated" : "");
	ret = parse_events_add_breakpoint(parse_state, list, addr,
					  bp.access[0] ? bp.access : NULL, len, head_config);
	if (ret)
		goto out;
	/* named as written, FILE's '/' included, unless name= says otherwise */
	evsel = list_last_entry(list, struct evsel, core.node);
	if (!evsel->name && asprintf(&evsel->name, "mem:%s", spec) < 0) {
		evsel->name = NULL;
		ret = -ENOMEM;
		goto out;
	}
	if (!u)
		goto out;

	u->evsel = evsel;
	u->link_addr = addr;
	u->spec = strdup(spec);
	u->file = strdup(bp.file);
	if (!u->spec || !u->file) {
		ret = -ENOMEM;
		goto out;
	}
	list_add_tail(&u->node, &bp_user_list);
	u = NULL;
out:
	bp_user__delete(u);
	free(bp.name);
	free(bp.file);
	return ret;
}

/* Move @u's breakpoint to where the stopped workload @pid has FILE. */
static int bp_user__exec_relocate(struct bp_user *u, pid_t pid)
{
	struct xyarray *fds = u->evsel->core.fd;
	struct perf_event_attr attr;
	char *msg = NULL;
	int x, y;
	u64 addr;

	if (bp_user__address(u, pid, &addr, &msg)) {
		pr_err("mem:%s: %s\n", u->spec, msg ?: "cannot find its address");
		free(msg);
		return -EINVAL;
	}
	/*
	 * The kernel checks that the rest is the event's own attr, which exec
	 * changed: enable_on_exec enabled the event and cleared the bit. The
	 * modification disables the event and enables it again if 'disabled'
	 * is clear: it is, then, unless the event waits for perf to enable it.
	 */
	attr = u->evsel->core.attr;
	attr.bp_addr = addr;
	if (attr.enable_on_exec)
		attr.disabled = 0;
	attr.enable_on_exec = 0;
	for (x = 0; fds && x < xyarray__max_x(fds); x++) {
		for (y = 0; y < xyarray__max_y(fds); y++) {
			int fd = *(int *)xyarray__entry(fds, x, y);

			if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr)) {
				pr_err("mem:%s: cannot move the breakpoint to %#" PRIx64 ": %s\n",
				       u->spec, addr, strerror(errno));
				return -EINVAL;
			}
		}
	}
	u->evsel->core.attr.bp_addr = addr;
	pr_debug("mem:%s: %s (a position-independent executable) at %#" PRIx64
		 " in the workload, %d\n", u->spec, u->file, addr, pid);
	return 0;
}

int bp_symbol__start_workload(struct evlist *evlist)
{
	struct timespec now = { 0, 0 };
	pid_t pid = evlist->workload.pid;
	sigset_t chld, old;
	struct bp_user *u;
	siginfo_t info;
	int ret = 0;

	if (!evlist->workload.stop_at_exec)
		return evlist__start_workload(evlist);

	/*
	 * The stop's SIGCHLD must not reach perf's handler, which would take
	 * it for the end of the workload; the real end, after the detach,
	 * must: SIGCHLD is blocked from the start to the detach, and the one
	 * signal pending before the detach dropped.
	 */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	evlist__start_workload(evlist);
	memset(&info, 0, sizeof(info));
	if (waitid(P_PID, pid, &info, WEXITED | WSTOPPED | WNOWAIT) ||
	    info.si_code != CLD_TRAPPED) {
		/* exec failed and the child exited: perf sees it as usual */
		goto out;
	}
	waitid(P_PID, pid, &info, WSTOPPED);
	list_for_each_entry(u, &bp_user_list, node) {
		if (u->at_exec && !ret)
			ret = bp_user__exec_relocate(u, pid);
	}
	while (sigtimedwait(&chld, NULL, &now) == SIGCHLD)
		;
	if (ret)
		kill(pid, SIGKILL);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
