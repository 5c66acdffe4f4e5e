// SPDX-License-Identifier: GPL-2.0
/*
 * pt-check: Intel's own packet decoder (libipt's pt_pkt_*) on the Intel PT
 * trace of a perf.data file: an outside client of our QEMU's PT model.
 *
 * Usage: pt-check [-s] [-u|-k] [-v] PERF.DATA
 *
 * Reads the PERF_RECORD_AUXTRACE records of PERF.DATA (perf record's file
 * format: header, then the data section; each AUXTRACE record is followed
 * by its trace bytes, padded to 8 bytes with zeros, which the next
 * record's offset tells apart). The bytes of one AUX area (the record's
 * idx) make one stream while their offsets follow on; a stream starts
 * again where
 * they do not (data that perf did not copy), and, with -s (snapshot
 * mode), at every record: a snapshot is a window of a ring, decoded from
 * its first PSB, and its last packet may be cut.
 *
 * Every byte of a stream from its start (the first PSB with -s) must
 * decode as a packet, and the packets must keep the rules of the manual
 * (Intel SDM Vol. 3C, "Intel Processor Trace", the packet definitions):
 *  - TIP.PGE only while packet generation is off, TIP.PGD and TIP only
 *    while it is on (on: after a TIP.PGE, or a FUP in PSB+; off: after a
 *    TIP.PGD, or a PSB+ without FUP); at the start of a stream and after a
 *    resync it is unknown and not checked;
 *  - between PSB and PSBEND only PSB+ packets (TSC, TMA, CBR, PIP, VMCS,
 *    MODE, FUP, PAD, timing packets); no TIP, TIP.PGE, TIP.PGD or TNT;
 *  - a FUP outside PSB+ is never alone: the next control packet is a TIP
 *    or TIP.PGD;
 *  - MODE.Exec outside PSB+ immediately precedes a TIP or TIP.PGE;
 *  - with -u every IP payload is a user address, with -k a kernel one
 *    (bit 47 of the sign-extended IP; a compressed IP is completed from
 *    the last IP, which a PSB sets to 0, and not checked where that is
 *    unknown: before the first PSB, after a resync);
 *  - an OVF ends PSB+ and turns packet generation off until the FUP that
 *    may follow it (a FUP alone) or a TIP.PGE ("OVF Packet").
 * A packet that does not decode, or a rule broken, is an error (its report
 * lists up to 16 packets before it, PADs left out, as offset:type, libipt's
 * enum pt_packet_type): the stream
 * resumes at the next PSB and the error is counted. An error at a cut is
 * excused instead: where a PERF_RECORD_AUX flagged truncated
 * (PERF_AUX_FLAG_TRUNCATED: the output stopped, maybe inside a packet, and
 * went on later after a gap) ends, at offset aux_offset + aux_size of the
 * AUX area, one error is excused if it lies from the longest packet's
 * length before that offset to the first PSB after it (the packet cut
 * there, or a rule the bytes after the gap break before the decoder
 * resyncs). A cut is found by its offset alone, not by its CPU: in a
 * CPU-wide recording, it could excuse an error at that offset of another
 * CPU's area.
 *
 * Prints one line per stream ("stream idx=... bytes=... psb=... pge=...
 * pgd=... fup=... tip=... pad=... errors=... excused=... pip=...
 * pip_low=... pip_cr3=... mtc=... tma=... ovf=... ipc=...") and a last
 * "total" line (ipc: IP packets with a compressed payload);
 * pip_low counts the PIPs with CR3 bits 11:5 or NR set (neither is, under
 * IA-32e paging outside VMX), pip_cr3 the distinct CR3 values of the PIPs
 * (up to MAX_CR3S); exits 0 when there is no error that a cut does not
 * excuse, 1 when there is, 2 on bad usage or an unreadable file.
 */
#include <errno.h>
#include <intel-pt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PERF_RECORD_AUX		11
#define PERF_RECORD_AUXTRACE	71
#define PERF_AUX_FLAG_TRUNCATED	0x01
/* The longest packet: PSB */
#define MAX_PACKET		16
#define MAX_CR3S		64

struct counts {
	uint64_t bytes, psb, pge, pgd, fup, tip, pad, errors, excused;
	uint64_t pip, pip_low, mtc, tma, ovf, ipc;
};

/* Distinct values, up to MAX_CR3S of them */
struct cr3_set {
	uint64_t v[MAX_CR3S];
	size_t n;
};

struct stream {
	uint32_t idx;
	uint64_t next_offset;
	uint8_t *buf;
	size_t len, cap;
	int open;
};

/* Where the output was cut: the end of a truncated PERF_RECORD_AUX */
struct cut {
	uint64_t at;
	int used;
};

static int snapshot, want_user, want_kernel, verbose;
static struct cut *cuts;
static size_t ncuts;
static struct counts total;
static struct cr3_set all_cr3s;

static void cr3_add(struct cr3_set *set, uint64_t cr3)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->v[i] == cr3)
			return;
	if (set->n < MAX_CR3S)
		set->v[set->n++] = cr3;
}

static int fail(const char *what)
{
	fprintf(stderr, "pt-check: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void readat(FILE *f, uint64_t off, void *buf, size_t len)
{
	if (fseeko(f, off, SEEK_SET) || fread(buf, 1, len, f) != len) {
		if (!errno)
			errno = EIO;
		fail("read");
	}
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t sext48(uint64_t ip)
{
	return (uint64_t)((int64_t)(ip << 16) >> 16);
}

/*
 * The last IP ("IP Compression"): 0 from a PSB on, then each IP packet's
 * whole IP; unknown (have 0) at a stream's start and after a resync, until
 * a PSB. An OVF leaves it as it was.
 */
struct last_ip {
	uint64_t ip;
	int have;
};

/*
 * The whole IP of the IP packet @p, through @last, which it updates: 1,
 * or 0 when it is compressed against a last IP not known.
 */
static int packet_ip(const struct pt_packet *p, struct last_ip *last, uint64_t *ip)
{
	uint64_t v = p->payload.ip.ip;

	switch (p->payload.ip.ipc) {
	case pt_ipc_sext_48:
		*ip = sext48(v);
		break;
	case pt_ipc_full:
		*ip = v;
		break;
	case pt_ipc_update_16:
		*ip = (last->ip & ~0xffffULL) | (v & 0xffff);
		break;
	case pt_ipc_update_32:
		*ip = (last->ip & ~0xffffffffULL) | (v & 0xffffffff);
		break;
	case pt_ipc_update_48:
		*ip = (last->ip & ~0xffffffffffffULL) | (v & 0xffffffffffffULL);
		break;
	default:
		return 0;
	}
	if (p->payload.ip.ipc != pt_ipc_sext_48 && p->payload.ip.ipc != pt_ipc_full &&
	    !last->have)
		return 0;
	last->ip = *ip;
	last->have = 1;
	return 1;
}

/*
 * Where a packet's IP breaks -u or -k; counts the compressed ones. An IP
 * compressed against a last IP not known is not checked.
 */
static int bad_ip(const struct pt_packet *p, struct last_ip *last, struct counts *c)
{
	uint64_t ip;
	int kernel;

	if (p->payload.ip.ipc == pt_ipc_suppressed)
		return 0;
	if (p->payload.ip.ipc != pt_ipc_sext_48 && p->payload.ip.ipc != pt_ipc_full)
		c->ipc++;
	if (!packet_ip(p, last, &ip))
		return 0;
	kernel = (ip >> 47) & 1;
	return (want_user && kernel) || (want_kernel && !kernel);
}

enum pkt_state { OFF, ON, UNKNOWN };

/* The offset of the first PSB at or after @from in @s, or its end */
static uint64_t next_psb(const struct stream *s, uint64_t start, uint64_t from)
{
	static const uint8_t psb[MAX_PACKET] = {
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	};
	size_t i;

	for (i = from - start; i + sizeof(psb) <= s->len; i++)
		if (!memcmp(s->buf + i, psb, sizeof(psb)))
			return start + i;
	return start + s->len;
}

/*
 * Is the error at offset @at of @s (which begins at offset @start) that of
 * a cut? Each cut excuses one error.
 */
static int at_a_cut(const struct stream *s, uint64_t start, uint64_t at)
{
	size_t i;

	for (i = 0; i < ncuts; i++) {
		struct cut *c = &cuts[i];

		if (c->used || c->at < start || c->at > start + s->len)
			continue;
		if (at + MAX_PACKET >= c->at && at < next_psb(s, start, c->at)) {
			c->used = 1;
			return 1;
		}
	}
	return 0;
}

static void report(const char *name, uint32_t idx, uint64_t at, const char *why)
{
	printf("# %s idx=%u offset=%llu: %s\n", name, idx, (unsigned long long)at, why);
}

/* The packets before an error but PADs, for its report: libipt's types */
#define HISTORY	16
struct history {
	uint64_t at[HISTORY];
	int type[HISTORY];
	unsigned int n;
};

static void history_add(struct history *h, uint64_t at, int type)
{
	h->at[h->n % HISTORY] = at;
	h->type[h->n % HISTORY] = type;
	h->n++;
}

static void history_print(const struct history *h)
{
	unsigned int i = h->n > HISTORY ? h->n - HISTORY : 0;

	printf("#   before it:");
	for (; i < h->n; i++)
		printf(" %llu:%d", (unsigned long long)h->at[i % HISTORY], h->type[i % HISTORY]);
	printf("\n");
}

/* Decode one stream; returns its counts and the CR3 values of its PIPs. */
static void check_stream(const struct stream *s, uint64_t start, struct counts *c,
			 struct cr3_set *cr3s)
{
	struct pt_config config;
	struct pt_packet_decoder *dec;
	enum pkt_state state = UNKNOWN;
	int in_psb = 0, fup_pending = 0, mode_pending = 0, errors_here = 0;
	int ovf_pending = 0;
	struct last_ip last = { 0, 0 };
	struct history hist = { .n = 0 };
	uint64_t at = 0;
	int rc;

	memset(c, 0, sizeof(*c));
	c->bytes = s->len;
	if (!s->len)
		return;
	pt_config_init(&config);
	config.begin = s->buf;
	config.end = s->buf + s->len;
	dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		fail("pt_pkt_alloc_decoder");
	rc = snapshot ? pt_pkt_sync_forward(dec) : pt_pkt_sync_set(dec, 0);
	if (rc < 0) {
		if (snapshot && rc == -pte_eos)
			goto out;	/* a snapshot with no PSB: nothing to decode */
		report("sync", s->idx, start, pt_errstr(pt_errcode(rc)));
		c->errors++;
		goto out;
	}
	for (;;) {
		struct pt_packet p;
		const char *why = NULL;

		pt_pkt_get_offset(dec, &at);
		rc = pt_pkt_next(dec, &p, sizeof(p));
		if (rc == -pte_eos) {
			/* The end; with -s a snapshot's last packet may be cut */
			if (!snapshot && at != s->len)
				why = "the stream ends inside a packet";
			else
				break;
		} else if (rc < 0) {
			why = pt_errstr(pt_errcode(rc));
		} else {
			switch (p.type) {
			case ppt_pad:
				c->pad++;
				break;
			case ppt_psb:
				c->psb++;
				if (in_psb)
					why = "PSB inside PSB+";
				in_psb = 1;
				fup_pending = mode_pending = ovf_pending = 0;
				state = OFF;	/* unless PSB+ has a FUP */
				last.ip = 0;
				last.have = 1;
				break;
			case ppt_ovf:
				/*
				 * "OVF Packet": it ends PSB+; then a FUP of
				 * where generation resumes, or else (outside
				 * the context) the next TIP.PGE.
				 */
				c->ovf++;
				in_psb = fup_pending = mode_pending = 0;
				ovf_pending = 1;
				state = OFF;
				break;
			case ppt_psbend:
				if (!in_psb)
					why = "PSBEND without PSB";
				in_psb = 0;
				break;
			case ppt_fup:
				c->fup++;
				if (bad_ip(&p, &last, c))
					why = "FUP IP of the wrong privilege";
				if (in_psb || ovf_pending)
					state = ON;
				else if (fup_pending)
					why = "FUP after a FUP";
				else
					fup_pending = 1;
				break;
			case ppt_tip_pge:
				c->pge++;
				if (in_psb)
					why = "TIP.PGE inside PSB+";
				else if (state == ON)
					why = "TIP.PGE while packet generation is on";
				else if (fup_pending)
					why = "TIP.PGE after a FUP";
				if (bad_ip(&p, &last, c))
					why = "TIP.PGE IP of the wrong privilege";
				state = ON;
				mode_pending = 0;
				break;
			case ppt_tip_pgd:
			case ppt_tip:
				if (p.type == ppt_tip)
					c->tip++;
				else
					c->pgd++;
				if (in_psb)
					why = "TIP or TIP.PGD inside PSB+";
				else if (state == OFF)
					why = "TIP or TIP.PGD while packet generation is off";
				else if (p.type == ppt_tip_pgd && mode_pending)
					why = "MODE.Exec before TIP.PGD";
				if (bad_ip(&p, &last, c))
					why = "TIP IP of the wrong privilege";
				if (p.type == ppt_tip_pgd)
					state = OFF;
				fup_pending = mode_pending = 0;
				break;
			case ppt_mode:
				if (p.payload.mode.leaf == pt_mol_exec && !in_psb) {
					if (mode_pending)
						why = "MODE.Exec after a MODE.Exec";
					mode_pending = 1;
				}
				break;
			case ppt_pip:
				c->pip++;
				if ((p.payload.pip.cr3 & 0xfe0) || p.payload.pip.nr)
					c->pip_low++;
				cr3_add(cr3s, p.payload.pip.cr3);
				cr3_add(&all_cr3s, p.payload.pip.cr3);
				break;
			case ppt_mtc:
				c->mtc++;
				break;
			case ppt_tma:
				c->tma++;
				break;
			case ppt_tnt_8:
			case ppt_tnt_64:
				if (in_psb)
					why = "TNT inside PSB+";
				else if (state == OFF)
					why = "TNT while packet generation is off";
				break;
			default:
				break;
			}
			if (p.type != ppt_ovf && p.type != ppt_pad &&
			    p.type != ppt_mtc && p.type != ppt_tsc &&
			    p.type != ppt_tma && p.type != ppt_cbr)
				ovf_pending = 0;
			if (!why && mode_pending && p.type != ppt_mode &&
			    p.type != ppt_tip && p.type != ppt_tip_pge &&
			    p.type != ppt_pad)
				why = "MODE.Exec not followed by TIP or TIP.PGE";
			if (verbose)
				printf("# %llu: type %d\n", (unsigned long long)at, p.type);
		}
		if (!why) {
			if (p.type != ppt_pad)
				history_add(&hist, at, p.type);
			continue;
		}
		if (at_a_cut(s, start, start + at)) {
			c->excused++;
			report("excused at a cut", s->idx, start + at, why);
		} else {
			c->errors++;
			if (errors_here++ < 10) {
				report("error", s->idx, start + at, why);
				history_print(&hist);
			}
		}
		if (rc == -pte_eos)
			break;
		/* Resume at the next PSB */
		rc = pt_pkt_sync_forward(dec);
		if (rc < 0)
			break;
		state = UNKNOWN;
		in_psb = fup_pending = mode_pending = ovf_pending = 0;
		last.have = 0;
	}
out:
	pt_pkt_free_decoder(dec);
}

static void print_counts(const struct counts *c, const struct cr3_set *cr3s)
{
	printf("bytes=%llu psb=%llu pge=%llu pgd=%llu fup=%llu tip=%llu pad=%llu errors=%llu",
	       (unsigned long long)c->bytes, (unsigned long long)c->psb,
	       (unsigned long long)c->pge, (unsigned long long)c->pgd,
	       (unsigned long long)c->fup, (unsigned long long)c->tip,
	       (unsigned long long)c->pad, (unsigned long long)c->errors);
	printf(" excused=%llu", (unsigned long long)c->excused);
	printf(" pip=%llu pip_low=%llu pip_cr3=%zu mtc=%llu tma=%llu ovf=%llu ipc=%llu\n",
	       (unsigned long long)c->pip, (unsigned long long)c->pip_low,
	       cr3s->n, (unsigned long long)c->mtc, (unsigned long long)c->tma,
	       (unsigned long long)c->ovf, (unsigned long long)c->ipc);
}

static void flush(struct stream *s)
{
	struct cr3_set cr3s = { .n = 0 };
	struct counts c;

	if (!s->open)
		return;
	check_stream(s, s->next_offset - s->len, &c, &cr3s);
	printf("stream idx=%u ", s->idx);
	print_counts(&c, &cr3s);
	total.bytes += c.bytes;
	total.psb += c.psb;
	total.pge += c.pge;
	total.pgd += c.pgd;
	total.fup += c.fup;
	total.tip += c.tip;
	total.pad += c.pad;
	total.errors += c.errors;
	total.excused += c.excused;
	total.pip += c.pip;
	total.pip_low += c.pip_low;
	total.mtc += c.mtc;
	total.tma += c.tma;
	total.ovf += c.ovf;
	total.ipc += c.ipc;
	s->len = 0;
	s->open = 0;
}

/* The header of the record at @pos: its type and size */
static uint32_t record_at(FILE *f, uint64_t pos, uint16_t *size)
{
	uint8_t rec[8];

	readat(f, pos, rec, sizeof(rec));
	*size = rec[6] | rec[7] << 8;
	if (*size < 8) {
		fprintf(stderr, "pt-check: a record of size %u at %llu\n", *size,
			(unsigned long long)pos);
		exit(2);
	}
	return rec[0] | rec[1] << 8 | rec[2] << 16 | (uint32_t)rec[3] << 24;
}

/*
 * The cuts: where each truncated PERF_RECORD_AUX of [@pos, @end) ends. An
 * AUXTRACE record is followed by its trace bytes, which its size does not
 * count.
 */
static void read_cuts(FILE *f, uint64_t pos, uint64_t end)
{
	uint8_t rec[32];
	uint16_t size;
	uint32_t type;

	for (; pos + 8 <= end; pos += size) {
		type = record_at(f, pos, &size);
		if (type == PERF_RECORD_AUXTRACE) {
			readat(f, pos, rec, 16);
			pos += le64(rec + 8);
			continue;
		}
		if (type != PERF_RECORD_AUX || size < sizeof(rec))
			continue;
		readat(f, pos, rec, sizeof(rec));
		/* header, aux_offset, aux_size, flags */
		if (!(le64(rec + 24) & PERF_AUX_FLAG_TRUNCATED))
			continue;
		cuts = realloc(cuts, ++ncuts * sizeof(*cuts));
		if (!cuts)
			fail("realloc");
		cuts[ncuts - 1].at = le64(rec + 8) + le64(rec + 16);
		cuts[ncuts - 1].used = 0;
	}
}

int main(int argc, char **argv)
{
	struct stream *streams = NULL;
	size_t nstreams = 0, i;
	uint8_t hdr[104], rec[48];
	uint64_t pos, end;
	FILE *f;
	int opt;

	while ((opt = getopt(argc, argv, "sukv")) != -1) {
		switch (opt) {
		case 's':
			snapshot = 1;
			break;
		case 'u':
			want_user = 1;
			break;
		case 'k':
			want_kernel = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || (want_user && want_kernel))
		goto usage;
	f = fopen(argv[optind], "rb");
	if (!f)
		fail(argv[optind]);
	readat(f, 0, hdr, sizeof(hdr));
	if (memcmp(hdr, "PERFILE2", 8)) {
		fprintf(stderr, "pt-check: %s: not a perf.data file\n", argv[optind]);
		return 2;
	}
	/* magic, size, attr_size, attrs {offset, size}, data {offset, size} */
	end = le64(hdr + 40) + le64(hdr + 48);
	read_cuts(f, le64(hdr + 40), end);
	pos = le64(hdr + 40);
	while (pos + 8 <= end) {
		uint32_t type, idx;
		uint16_t size;
		uint64_t len, off;
		struct stream *s = NULL;

		type = record_at(f, pos, &size);
		if (type != PERF_RECORD_AUXTRACE) {
			pos += size;
			continue;
		}
		readat(f, pos, rec, sizeof(rec));
		len = le64(rec + 8);
		off = le64(rec + 16);
		idx = rec[32] | rec[33] << 8 | rec[34] << 16 | (uint32_t)rec[35] << 24;
		for (i = 0; i < nstreams; i++)
			if (streams[i].idx == idx)
				s = &streams[i];
		if (!s) {
			streams = realloc(streams, ++nstreams * sizeof(*streams));
			if (!streams)
				fail("realloc");
			s = &streams[nstreams - 1];
			memset(s, 0, sizeof(*s));
			s->idx = idx;
		}
		/*
		 * perf pads each record's data to 8 bytes with zeros (PADs),
		 * and the next record starts at the true offset: drop the
		 * padding where the next one follows on.
		 */
		if (s->open && !snapshot && off < s->next_offset &&
		    s->next_offset - off < 8 && s->next_offset - off <= s->len) {
			s->len -= s->next_offset - off;
			s->next_offset = off;
		}
		if (s->open && (snapshot || off != s->next_offset))
			flush(s);
		if (s->len + len > s->cap) {
			s->cap = (s->len + len) * 2;
			s->buf = realloc(s->buf, s->cap);
			if (!s->buf)
				fail("realloc");
		}
		readat(f, pos + size, s->buf + s->len, len);
		s->len += len;
		s->next_offset = off + len;
		s->open = 1;
		pos += size + len;
	}
	for (i = 0; i < nstreams; i++)
		flush(&streams[i]);
	printf("total ");
	print_counts(&total, &all_cr3s);
	return total.errors ? 1 : 0;
usage:
	fprintf(stderr, "usage: pt-check [-s] [-u|-k] [-v] PERF.DATA\n");
	return 2;
}
