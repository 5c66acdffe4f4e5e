// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vpa_dtl: a stand-in for the hypervisor, for tests (CONFIG_VPA_DTL_INJECT).
 *
 * QEMU never writes Dispatch Trace Log entries. Writing lines of numbers to
 * powerpc/vpa_dtl_inject/cpu-N in debugfs appends entries to the DTL
 * registered on CPU N as the hypervisor would: the entry, a write barrier,
 * the index increment. It runs on CPU N with interrupts off, as the
 * hypervisor writes while the vCPU is not running, so that a poll never
 * sees half of what one write injects.
 *
 * Each line: dispatch_reason preempt_reason processor_id
 * enqueue_to_dispatch_time ready_to_enqueue_time waiting_to_ready_time
 * timebase fault_addr srr0 srr1 [count]; a timebase of 0 is the current
 * one; count (default 1) repeats the entry, with timebase + 1 each time.
 * The work done with interrupts off is bounded: one write injects at most
 * VPA_DTL_INJECT_MAX_ENTRIES entries in all (-E2BIG beyond), enough to
 * wrap the 85-entry buffer many times over within one write.
 *
 * Reading cpu-N tells who owns the CPU's DTL, its enable mask, the
 * hypervisor's index and the accounting scan's (paca->dtl_ridx), and when
 * a vpa_dtl event owns it, the index its poll reads next.
 * Documentation/powerpc/vpa-dtl.rst describes the files.
 */

#define pr_fmt(fmt) "vpa_dtl: " fmt

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/dtl.h>
#include <asm/lppaca.h>
#include <asm/paca.h>
#include <asm/time.h>

#include "vpa-dtl.h"

/* Bounds of one write: its length, its lines, the entries of all lines. */
#define VPA_DTL_INJECT_MAX_WRITE	SZ_64K
#define VPA_DTL_INJECT_MAX_LINES	256
#define VPA_DTL_INJECT_MAX_ENTRIES	1024

struct vpa_dtl_inject_line {
	u64	val[10];
	u64	count;
};

struct vpa_dtl_inject {
	struct vpa_dtl_inject_line	*lines;
	unsigned int			nr;
	long				ret;
	char				*state;
	size_t				state_len;
};

/*
 * The registered buffer of this CPU: a vpa_dtl event's (@read: the index
 * its poll reads next), or the accounting one (@read untouched).
 */
static struct dtl_entry *vpa_dtl_inject_ring(const char **who, u64 *read)
{
	struct dtl_entry *ring = vpa_dtl_this_cpu_buffer(read);

	if (ring) {
		*who = "vpa_dtl";
		return ring;
	}
	if (local_paca->dispatch_log && local_paca->dtl_curr &&
	    local_paca->lppaca_ptr->dtl_enable_mask) {
		*who = "accounting";
		return local_paca->dispatch_log;
	}
	*who = "none";
	return NULL;
}

/*
 * On the target CPU, interrupts off: at most VPA_DTL_INJECT_MAX_ENTRIES
 * entries, which vpa_dtl_inject_parse() made sure of.
 */
static void vpa_dtl_inject_ipi(void *arg)
{
	struct vpa_dtl_inject *inj = arg;
	struct lppaca *vpa = local_paca->lppaca_ptr;
	struct dtl_entry *ring;
	const char *who;
	unsigned int i;
	u64 k, idx, read;

	ring = vpa_dtl_inject_ring(&who, &read);
	if (!ring || !vpa->dtl_enable_mask) {
		inj->ret = -ENODEV;
		return;
	}
	for (i = 0; i < inj->nr; i++) {
		const u64 *v = inj->lines[i].val;

		for (k = 0; k < inj->lines[i].count; k++) {
			struct dtl_entry *e;

			idx = be64_to_cpu(vpa->dtl_idx);
			e = &ring[idx % N_DISPATCH_LOG];
			e->dispatch_reason = v[0];
			e->preempt_reason = v[1];
			e->processor_id = cpu_to_be16(v[2]);
			e->enqueue_to_dispatch_time = cpu_to_be32(v[3]);
			e->ready_to_enqueue_time = cpu_to_be32(v[4]);
			e->waiting_to_ready_time = cpu_to_be32(v[5]);
			e->timebase = cpu_to_be64(v[6] ? v[6] + k : get_tb());
			e->fault_addr = cpu_to_be64(v[7]);
			e->srr0 = cpu_to_be64(v[8]);
			e->srr1 = cpu_to_be64(v[9]);
			smp_wmb();	/* the entry before the index */
			vpa->dtl_idx = cpu_to_be64(idx + 1);
			inj->ret++;
		}
	}
}

static void vpa_dtl_inject_state_ipi(void *arg)
{
	struct vpa_dtl_inject *inj = arg;
	struct lppaca *vpa = local_paca->lppaca_ptr;
	const char *who;
	u64 read = 0;
	int len;

	vpa_dtl_inject_ring(&who, &read);
	len = scnprintf(inj->state, 128, "owner=%s mask=%#x idx=%llu ridx=%llu",
			who, vpa->dtl_enable_mask, be64_to_cpu(vpa->dtl_idx),
			local_paca->dtl_ridx);
	if (!strcmp(who, "vpa_dtl"))
		len += scnprintf(inj->state + len, 128 - len, " read=%llu", read);
	len += scnprintf(inj->state + len, 128 - len, "\n");
	inj->state_len = len;
}

/*
 * -EINVAL for a line that is not 10 or 11 numbers in range, a count of 0,
 * or timebases that would wrap to 0 (no entry has a zero timebase: that
 * marks the header in the AUX stream); -E2BIG beyond the bounds of a write.
 */
static int vpa_dtl_inject_parse(char *text, struct vpa_dtl_inject *inj)
{
	u64 total = 0;
	char *line, *tok;
	unsigned int n;

	while ((line = strsep(&text, "\n"))) {
		struct vpa_dtl_inject_line *l;

		line = skip_spaces(line);
		if (!*line)
			continue;
		if (inj->nr == VPA_DTL_INJECT_MAX_LINES)
			return -E2BIG;
		l = &inj->lines[inj->nr];
		l->count = 1;
		n = 0;
		while ((tok = strsep(&line, " \t"))) {
			if (!*tok)
				continue;
			if (n > ARRAY_SIZE(l->val) ||
			    kstrtou64(tok, 0, n < ARRAY_SIZE(l->val) ? &l->val[n] : &l->count))
				return -EINVAL;
			n++;
		}
		if (n < ARRAY_SIZE(l->val) || l->val[0] > U8_MAX || l->val[1] > U8_MAX ||
		    l->val[2] > U16_MAX || l->val[3] > U32_MAX || l->val[4] > U32_MAX ||
		    l->val[5] > U32_MAX || !l->count)
			return -EINVAL;
		if (l->count > VPA_DTL_INJECT_MAX_ENTRIES - total)
			return -E2BIG;
		if (l->val[6] > U64_MAX - (l->count - 1))
			return -EINVAL;
		total += l->count;
		inj->nr++;
	}
	return inj->nr ? 0 : -EINVAL;
}

static ssize_t vpa_dtl_inject_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	int cpu = (long)file->private_data;
	struct vpa_dtl_inject inj = {};
	char *text;
	int ret;

	if (len > VPA_DTL_INJECT_MAX_WRITE)
		return -E2BIG;
	text = memdup_user_nul(ubuf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	inj.lines = kcalloc(VPA_DTL_INJECT_MAX_LINES, sizeof(*inj.lines), GFP_KERNEL);
	ret = inj.lines ? vpa_dtl_inject_parse(text, &inj) : -ENOMEM;
	if (!ret)
		ret = smp_call_function_single(cpu, vpa_dtl_inject_ipi, &inj, 1);
	if (!ret && inj.ret < 0)
		ret = inj.ret;
	kfree(inj.lines);
	kfree(text);
	return ret ? ret : len;
}

static ssize_t vpa_dtl_inject_read(struct file *file, char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	int cpu = (long)file->private_data;
	struct vpa_dtl_inject inj = {};
	char state[128];
	int ret;

	inj.state = state;
	ret = smp_call_function_single(cpu, vpa_dtl_inject_state_ipi, &inj, 1);
	if (ret)
		return ret;
	return simple_read_from_buffer(ubuf, len, ppos, state, inj.state_len);
}

static const struct file_operations vpa_dtl_inject_fops = {
	.open	= simple_open,
	.read	= vpa_dtl_inject_read,
	.write	= vpa_dtl_inject_write,
	.llseek	= default_llseek,
};

static int vpa_dtl_timebase_show(struct seq_file *m, void *v)
{
	seq_printf(m, "boot_tb=%llu tb_freq=%lu now=%llu\n",
		   boot_tb, tb_ticks_per_sec, get_tb());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vpa_dtl_timebase);

/* Called by vpa_dtl_init() once the PMU is registered. */
void __init vpa_dtl_inject_init(void)
{
	struct dentry *dir = debugfs_create_dir("vpa_dtl_inject", arch_debugfs_dir);
	char name[16];
	long cpu;

	pr_notice("hypervisor stand-in for tests in debugfs: not for production kernels\n");
	debugfs_create_file("timebase", 0400, dir, NULL, &vpa_dtl_timebase_fops);
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu-%ld", cpu);
		debugfs_create_file(name, 0600, dir, (void *)cpu, &vpa_dtl_inject_fops);
	}
}
