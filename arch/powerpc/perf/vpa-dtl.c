// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vpa_dtl: the hypervisor's Dispatch Trace Log (DTL) as a perf PMU.
 *
 * On a shared-processor LPAR the hypervisor logs each dispatch of a
 * virtual processor into a per-CPU buffer that the OS registers with
 * H_REGISTER_VPA. A vpa_dtl event (CPU-wide only) registers its own
 * buffer on its CPU while it is scheduled in, polls it with an hrtimer and
 * copies the entries into the perf AUX area: first one native-endian
 * header record { boot_tb, tb_freq, 0, 0, 0, 0 }, then the entries as the
 * hypervisor wrote them (big-endian). Entries that the hypervisor overwrote
 * before a poll, or that found no room in the AUX area, are counted and
 * reported by a lost-entries record (a header record whose pad[0] is
 * VPA_DTL_LOST_MAGIC and pad[1] the count) in a PERF_RECORD_AUX flagged
 * PARTIAL. See Documentation/powerpc/vpa-dtl.rst.
 *
 * Context: ->add(), ->del(), ->start(), ->stop() and the hrtimer run on
 * the event's CPU with interrupts disabled, so they never nest; the
 * buffers are allocated in ->event_init() and freed in ->destroy(), never
 * in ->del(), so an event can be disabled and enabled again at will.
 */

#define pr_fmt(fmt) "vpa_dtl: " fmt

#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rwsem.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <asm/dtl.h>
#include <asm/firmware.h>
#include <asm/kvm_guest.h>
#include <asm/lppaca.h>
#include <asm/machdep.h>
#include <asm/paca.h>
#include <asm/plpar_wrappers.h>
#include <asm/time.h>

#define VPA_DTL_RECORD		sizeof(struct dtl_entry)
#define VPA_DTL_MIN_PERIOD_NS	NSEC_PER_MSEC
#define VPA_DTL_MAX_PERIOD_NS	(3600 * NSEC_PER_SEC)
/* "DTL_LOST" in ASCII: pad[0] of a lost-entries record */
#define VPA_DTL_LOST_MAGIC	0x44544c5f4c4f5354ULL

/* The first record of each CPU's stream (a zero timebase marks it). */
struct vpa_dtl_header {
	u64	boot_tb;
	u64	tb_freq;
	u64	timebase;
	u64	pad[3];
};

static_assert(sizeof(struct vpa_dtl_header) == VPA_DTL_RECORD);
static_assert(sizeof(struct dtl_entry) == 48);

/* The AUX area of one ring buffer, as given to ->setup_aux(). */
struct vpa_dtl_aux {
	void		**pages;
	unsigned long	size;		/* bytes, a power of two */
	bool		overwrite;
};

/* One event: event->pmu_private. */
struct vpa_dtl_event {
	struct perf_event	*event;
	struct dtl_entry	*dtl;	/* registered with the hypervisor in ->add() */
	struct dtl_entry	*copy;	/* entries read by one poll */
	struct dtl_entry	*saved_curr;	/* the accounting scan's pointer */
	struct hrtimer		timer;
	u64			period_ns;
	u64			last_idx;	/* next entry to read */
	u64			lost;		/* lost entries not reported yet */
	u8			mask;
	bool			header_done;
	bool			registered;
};

static struct pmu vpa_dtl_pmu;

/*
 * Events that exist: while there is one, dtl_access_lock is held for write.
 * Events come and go in different tasks, but an rw_semaphore must be
 * released by the task that took it: a kthread of ours takes and releases
 * it, on behalf of the first and last event.
 */
static DEFINE_MUTEX(vpa_dtl_mutex);
static unsigned int vpa_dtl_users;
static struct kthread_worker *vpa_dtl_locker;
static bool vpa_dtl_locked;

static void vpa_dtl_lock_fn(struct kthread_work *work)
{
	vpa_dtl_locked = down_write_trylock(&dtl_access_lock);
}

static void vpa_dtl_unlock_fn(struct kthread_work *work)
{
	up_write(&dtl_access_lock);
	vpa_dtl_locked = false;
}

static DEFINE_KTHREAD_WORK(vpa_dtl_lock_work, vpa_dtl_lock_fn);
static DEFINE_KTHREAD_WORK(vpa_dtl_unlock_work, vpa_dtl_unlock_fn);

/* The event whose buffer is registered on each CPU. */
static DEFINE_PER_CPU(struct vpa_dtl_event *, vpa_dtl_owner);

static struct vpa_dtl_event *to_vde(struct perf_event *event)
{
	return event->pmu_private;
}

static void vpa_dtl_locker_run(struct kthread_work *work)
{
	kthread_queue_work(vpa_dtl_locker, work);
	kthread_flush_work(work);
}

/* A new event: -EBUSY if debugfs dtl or vcpudispatch_stats has the DTL. */
static int vpa_dtl_get(void)
{
	int ret = 0;

	mutex_lock(&vpa_dtl_mutex);
	if (!vpa_dtl_users) {
		vpa_dtl_locker_run(&vpa_dtl_lock_work);
		if (!vpa_dtl_locked)
			ret = -EBUSY;
	}
	if (!ret)
		vpa_dtl_users++;
	mutex_unlock(&vpa_dtl_mutex);
	return ret;
}

static void vpa_dtl_put(void)
{
	mutex_lock(&vpa_dtl_mutex);
	if (!WARN_ON_ONCE(!vpa_dtl_users) && !--vpa_dtl_users)
		vpa_dtl_locker_run(&vpa_dtl_unlock_work);
	mutex_unlock(&vpa_dtl_mutex);
}

static void vpa_dtl_aux_write(struct vpa_dtl_aux *aux, unsigned long head,
			      const void *src, unsigned long len)
{
	while (len) {
		unsigned long off = head & (aux->size - 1);
		unsigned long n = min(len, PAGE_SIZE - offset_in_page(off));

		memcpy(aux->pages[off >> PAGE_SHIFT] + offset_in_page(off), src, n);
		head += n;
		src += n;
		len -= n;
	}
}

/*
 * Of @n entries copied from entry @from on, how many the hypervisor may have
 * overwritten before the copy ended, its index being @after then. It
 * writes while this vCPU does not run, so what it wrote meanwhile is
 * complete: entry e is gone once entry e + N_DISPATCH_LOG is written, that
 * is once the index is past it.
 */
static u64 vpa_dtl_overwritten(u64 from, u64 n, u64 after)
{
	if (after <= from + N_DISPATCH_LOG)
		return 0;
	return min(n, after - N_DISPATCH_LOG - from);
}

/**
 * vpa_dtl_fetch() - copy the entries logged since the last poll
 * @ring: the registered buffer, N_DISPATCH_LOG entries
 * @vpa: the lppaca whose dtl_idx counts the entries the hypervisor wrote
 * @last: in: the next entry to read; out: the next one after this poll
 * @out: N_DISPATCH_LOG entries
 * @lost: incremented by the entries the hypervisor overwrote
 *
 * The hypervisor writes an entry, then increments the index; it can do so
 * while we copy (the vCPU preempted and dispatched again). Entries whose
 * slot it may have begun to rewrite when the copy ended are dropped and
 * counted as lost.
 *
 * Return: the number of entries copied to @out.
 */
static unsigned int vpa_dtl_fetch(const struct dtl_entry *ring,
				  const struct lppaca *vpa, u64 *last,
				  struct dtl_entry *out, u64 *lost)
{
	u64 cur, after, from = *last, n, i, bad;

	cur = be64_to_cpu(READ_ONCE(vpa->dtl_idx));
	smp_rmb();	/* read the index before the entries */
	if (cur <= from)
		return 0;
	if (cur - from > N_DISPATCH_LOG) {
		*lost += cur - from - N_DISPATCH_LOG;
		from = cur - N_DISPATCH_LOG;
	}
	n = cur - from;
	for (i = 0; i < n; i++)
		out[i] = ring[(from + i) % N_DISPATCH_LOG];
	smp_rmb();	/* read the entries before the index again */
	after = be64_to_cpu(READ_ONCE(vpa->dtl_idx));
	bad = vpa_dtl_overwritten(from, n, after);
	*lost += bad;
	*last = cur;
	if (bad)
		memmove(out, out + bad, (n - bad) * VPA_DTL_RECORD);
	return n - bad;
}

/*
 * Poll the DTL of this CPU into the AUX area. Called on the event's CPU
 * with interrupts disabled, while the event's buffer is registered.
 */
static void vpa_dtl_poll(struct vpa_dtl_event *vde)
{
	struct perf_event *event = vde->event;
	struct perf_output_handle handle;
	struct vpa_dtl_header hdr = {
		.boot_tb = boot_tb,
		.tb_freq = tb_ticks_per_sec,
	};
	unsigned long room, written = 0;
	struct vpa_dtl_aux *aux;
	unsigned int n, fit;

	if (!vde->registered)
		return;
	n = vpa_dtl_fetch(vde->dtl, local_paca->lppaca_ptr, &vde->last_idx,
			  vde->copy, &vde->lost);
	if (!n && !vde->lost && vde->header_done)
		return;

	aux = perf_aux_output_begin(&handle, event);
	if (!aux) {
		vde->lost += n;
		return;
	}
	room = aux->overwrite ? aux->size : handle.size;

	/* In overwrite mode every poll starts with a header: the old one is gone. */
	if (!vde->header_done || aux->overwrite) {
		if (room < VPA_DTL_RECORD)
			goto full;
		vpa_dtl_aux_write(aux, handle.head, &hdr, VPA_DTL_RECORD);
		written += VPA_DTL_RECORD;
		vde->header_done = true;
	}
	if (vde->lost) {
		if (room - written < VPA_DTL_RECORD)
			goto full;
		hdr.pad[0] = VPA_DTL_LOST_MAGIC;
		hdr.pad[1] = vde->lost;
		vpa_dtl_aux_write(aux, handle.head + written, &hdr, VPA_DTL_RECORD);
		written += VPA_DTL_RECORD;
		vde->lost = 0;
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_PARTIAL);
	}
	fit = min_t(unsigned long, n, (room - written) / VPA_DTL_RECORD);
	vpa_dtl_aux_write(aux, handle.head + written, vde->copy, fit * VPA_DTL_RECORD);
	written += fit * VPA_DTL_RECORD;
	n -= fit;
full:
	if (n) {
		vde->lost += n;
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_TRUNCATED);
	}
	if (aux->overwrite)
		handle.head += written;
	perf_aux_output_end(&handle, written);
}

static enum hrtimer_restart vpa_dtl_tick(struct hrtimer *timer)
{
	struct vpa_dtl_event *vde = container_of(timer, struct vpa_dtl_event, timer);

	if (vde->event->hw.state & PERF_HES_STOPPED)
		return HRTIMER_NORESTART;
	vpa_dtl_poll(vde);
	hrtimer_forward_now(timer, ns_to_ktime(vde->period_ns));
	return HRTIMER_RESTART;
}

static void vpa_dtl_start(struct perf_event *event, int flags)
{
	struct vpa_dtl_event *vde = to_vde(event);

	event->hw.state = 0;
	vpa_dtl_poll(vde);	/* the header, as soon as there is room */
	hrtimer_start(&vde->timer, ns_to_ktime(vde->period_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* Interrupts are off on the event's CPU: the pinned timer is not running. */
static void vpa_dtl_stop(struct perf_event *event, int flags)
{
	struct vpa_dtl_event *vde = to_vde(event);

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state = PERF_HES_STOPPED;
	hrtimer_cancel(&vde->timer);
	if (flags & PERF_EF_UPDATE)
		vpa_dtl_poll(vde);	/* what was logged before the stop */
}

/*
 * Give this CPU's DTL back to its owner before us: the kernel's own
 * accounting buffer (CONFIG_VIRT_CPU_ACCOUNTING_NATIVE) if there is one.
 * register_dtl_buffer() does nothing if the kernel has none.
 */
static void vpa_dtl_unregister(struct vpa_dtl_event *vde)
{
	int cpu = smp_processor_id();

	lppaca_of(cpu).dtl_enable_mask = 0;
	unregister_dtl(get_hard_smp_processor_id(cpu));
	vde->registered = false;
	this_cpu_write(vpa_dtl_owner, NULL);
	local_paca->dtl_curr = vde->saved_curr;
	register_dtl_buffer(cpu);
}

static int vpa_dtl_add(struct perf_event *event, int flags)
{
	struct vpa_dtl_event *vde = to_vde(event);
	int cpu = smp_processor_id();
	int hwcpu = get_hard_smp_processor_id(cpu);
	long rc;

	if (WARN_ON_ONCE(this_cpu_read(vpa_dtl_owner)))
		return -EBUSY;

	/* Keep the accounting scan off the DTL while it is ours. */
	vde->saved_curr = local_paca->dtl_curr;
	local_paca->dtl_curr = NULL;
	lppaca_of(cpu).dtl_enable_mask = 0;
	unregister_dtl(hwcpu);

	/* The hypervisor reads the buffer size from its second word. */
	memset(vde->dtl, 0, DISPATCH_LOG_BYTES);
	((__be32 *)vde->dtl)[1] = cpu_to_be32(DISPATCH_LOG_BYTES);
	rc = register_dtl(hwcpu, __pa(vde->dtl));
	this_cpu_write(vpa_dtl_owner, vde);
	if (rc) {
		pr_err_ratelimited("DTL registration of cpu %d (hw %d) failed: %ld\n",
				   cpu, hwcpu, rc);
		vpa_dtl_unregister(vde);
		return -EIO;
	}
	lppaca_of(cpu).dtl_idx = 0;
	vde->last_idx = 0;
	vde->registered = true;
	smp_wmb();	/* the index is reset before logging starts */
	lppaca_of(cpu).dtl_enable_mask = vde->mask;

	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		vpa_dtl_start(event, 0);
	return 0;
}

static void vpa_dtl_del(struct perf_event *event, int flags)
{
	struct vpa_dtl_event *vde = to_vde(event);

	vpa_dtl_stop(event, PERF_EF_UPDATE);
	if (vde->registered)
		vpa_dtl_unregister(vde);
}

static void vpa_dtl_read(struct perf_event *event)
{
}

static void *vpa_dtl_setup_aux(struct perf_event *event, void **pages,
			       int nr_pages, bool overwrite)
{
	int node = event->cpu == -1 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	struct vpa_dtl_aux *aux;

	aux = kzalloc_node(sizeof(*aux), GFP_KERNEL, node);
	if (!aux)
		return NULL;
	aux->pages = kvmalloc_array(nr_pages, sizeof(*pages), GFP_KERNEL);
	if (!aux->pages) {
		kfree(aux);
		return NULL;
	}
	memcpy(aux->pages, pages, nr_pages * sizeof(*pages));
	aux->size = (unsigned long)nr_pages << PAGE_SHIFT;
	aux->overwrite = overwrite;
	return aux;
}

static void vpa_dtl_free_aux(void *data)
{
	struct vpa_dtl_aux *aux = data;

	kvfree(aux->pages);
	kfree(aux);
}

static void vpa_dtl_free(struct vpa_dtl_event *vde)
{
	if (vde->dtl)
		kmem_cache_free(dtl_cache, vde->dtl);
	kfree(vde->copy);
	kfree(vde);
}

static void vpa_dtl_destroy(struct perf_event *event)
{
	struct vpa_dtl_event *vde = to_vde(event);

	hrtimer_cancel(&vde->timer);
	vpa_dtl_free(vde);
	event->pmu_private = NULL;
	vpa_dtl_put();
}

static int vpa_dtl_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct vpa_dtl_event *vde;
	u64 period;
	int node, ret;

	if (attr->type != vpa_dtl_pmu.type)
		return -ENOENT;

	switch (attr->config) {
	case DTL_LOG_CEDE:
	case DTL_LOG_PREEMPT:
	case DTL_LOG_FAULT:
	case DTL_LOG_ALL:
		break;
	default:
		return -EINVAL;
	}
	if (attr->config1 || attr->config2)
		return -EINVAL;
	/* The DTL belongs to a CPU, not to a task. */
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	if (!perfmon_capable())
		return -EACCES;
	if (!is_sampling_event(event) || has_branch_stack(event))
		return -EOPNOTSUPP;
	if (!dtl_cache)
		return -ENODEV;

	/* The period is the polling interval in ns; a frequency becomes one. */
	if (attr->freq) {
		period = attr->sample_freq ? div64_u64(NSEC_PER_SEC, attr->sample_freq) : 0;
		attr->freq = 0;
	} else {
		period = attr->sample_period;
	}
	period = clamp_t(u64, period, VPA_DTL_MIN_PERIOD_NS, VPA_DTL_MAX_PERIOD_NS);
	attr->sample_period = period;
	event->hw.sample_period = period;
	event->hw.last_period = period;

	node = cpu_to_node(event->cpu);
	vde = kzalloc_node(sizeof(*vde), GFP_KERNEL, node);
	if (!vde)
		return -ENOMEM;
	vde->dtl = kmem_cache_alloc_node(dtl_cache, GFP_KERNEL, node);
	vde->copy = kmalloc_node(DISPATCH_LOG_BYTES, GFP_KERNEL, node);
	if (!vde->dtl || !vde->copy) {
		vpa_dtl_free(vde);
		return -ENOMEM;
	}
	/* Last, so that no failure above has to give the lock back. */
	ret = vpa_dtl_get();
	if (ret) {
		vpa_dtl_free(vde);
		return ret;
	}

	vde->event = event;
	vde->mask = attr->config;
	vde->period_ns = period;
	hrtimer_init(&vde->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	vde->timer.function = vpa_dtl_tick;
	event->pmu_private = vde;
	event->destroy = vpa_dtl_destroy;
	return 0;
}

PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *vpa_dtl_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group vpa_dtl_format_group = {
	.name	= "format",
	.attrs	= vpa_dtl_format_attrs,
};

PMU_EVENT_ATTR_STRING(dtl_cede, vpa_dtl_cede, "event=0x1");
PMU_EVENT_ATTR_STRING(dtl_preempt, vpa_dtl_preempt, "event=0x2");
PMU_EVENT_ATTR_STRING(dtl_fault, vpa_dtl_fault, "event=0x4");
PMU_EVENT_ATTR_STRING(dtl_all, vpa_dtl_all, "event=0x7");

static struct attribute *vpa_dtl_event_attrs[] = {
	&vpa_dtl_cede.attr.attr,
	&vpa_dtl_preempt.attr.attr,
	&vpa_dtl_fault.attr.attr,
	&vpa_dtl_all.attr.attr,
	NULL,
};

static const struct attribute_group vpa_dtl_events_group = {
	.name	= "events",
	.attrs	= vpa_dtl_event_attrs,
};

static const struct attribute_group *vpa_dtl_attr_groups[] = {
	&vpa_dtl_format_group,
	&vpa_dtl_events_group,
	NULL,
};

static struct pmu vpa_dtl_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_EXCLUDE | PERF_PMU_CAP_EXCLUSIVE,
	.attr_groups	= vpa_dtl_attr_groups,
	.event_init	= vpa_dtl_event_init,
	.add		= vpa_dtl_add,
	.del		= vpa_dtl_del,
	.start		= vpa_dtl_start,
	.stop		= vpa_dtl_stop,
	.read		= vpa_dtl_read,
	.setup_aux	= vpa_dtl_setup_aux,
	.free_aux	= vpa_dtl_free_aux,
};

#ifdef CONFIG_VPA_DTL_INJECT
/*
 * A stand-in for the hypervisor, for tests: QEMU never writes DTL entries.
 * Writing lines of numbers to powerpc/vpa_dtl_inject/cpu-N in debugfs
 * appends entries to the DTL registered on CPU N as the hypervisor would:
 * the entry, a write barrier, the index increment. It runs on CPU N with
 * interrupts off, as the hypervisor writes while the vCPU is not running.
 * Each line: dispatch_reason preempt_reason processor_id
 * enqueue_to_dispatch_time ready_to_enqueue_time waiting_to_ready_time
 * timebase fault_addr srr0 srr1 [count]; a timebase of 0 is the current
 * one; count repeats the entry (with timebase + 1 each time). Reading
 * cpu-N tells who owns the CPU's DTL, its enable mask, the hypervisor's
 * index and the accounting scan's (paca->dtl_ridx).
 */
#define VPA_DTL_INJECT_MAX_LINES	256
#define VPA_DTL_INJECT_MAX_COUNT	100000

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

/* The registered buffer of this CPU: ours, or the accounting one. */
static struct dtl_entry *vpa_dtl_inject_ring(const char **who)
{
	struct vpa_dtl_event *vde = this_cpu_read(vpa_dtl_owner);

	if (vde && vde->registered) {
		*who = "vpa_dtl";
		return vde->dtl;
	}
	if (local_paca->dispatch_log && local_paca->dtl_curr &&
	    local_paca->lppaca_ptr->dtl_enable_mask) {
		*who = "accounting";
		return local_paca->dispatch_log;
	}
	*who = "none";
	return NULL;
}

static void vpa_dtl_inject_ipi(void *arg)
{
	struct vpa_dtl_inject *inj = arg;
	struct lppaca *vpa = local_paca->lppaca_ptr;
	struct dtl_entry *ring;
	const char *who;
	unsigned int i;
	u64 k, idx;

	ring = vpa_dtl_inject_ring(&who);
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

	vpa_dtl_inject_ring(&who);
	inj->state_len = scnprintf(inj->state, 128, "owner=%s mask=%#x idx=%llu ridx=%llu\n",
				   who, vpa->dtl_enable_mask, be64_to_cpu(vpa->dtl_idx),
				   local_paca->dtl_ridx);
}

static int vpa_dtl_inject_parse(char *text, struct vpa_dtl_inject *inj)
{
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
		    l->val[5] > U32_MAX || !l->count || l->count > VPA_DTL_INJECT_MAX_COUNT)
			return -EINVAL;
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

	if (len > PAGE_SIZE * 4)
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

static void __init vpa_dtl_inject_init(void)
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
#else
static inline void vpa_dtl_inject_init(void)
{
}
#endif /* CONFIG_VPA_DTL_INJECT */

static int __init vpa_dtl_init(void)
{
	int ret;

	if (!firmware_has_feature(FW_FEATURE_SPLPAR) || is_kvm_guest() || !dtl_cache)
		return 0;
	vpa_dtl_locker = kthread_create_worker(0, "vpa_dtl");
	if (IS_ERR(vpa_dtl_locker))
		return PTR_ERR(vpa_dtl_locker);
	ret = perf_pmu_register(&vpa_dtl_pmu, "vpa_dtl", -1);
	if (ret) {
		pr_err("registration failed: %d\n", ret);
		kthread_destroy_worker(vpa_dtl_locker);
		return ret;
	}
	vpa_dtl_inject_init();
	return 0;
}
machine_device_initcall(pseries, vpa_dtl_init);

#if IS_ENABLED(CONFIG_VPA_DTL_KUNIT_TEST)
#include <kunit/test.h>

/* Write entries [@from, @to) into @ring as the hypervisor would. */
static void vpa_dtl_test_log(struct dtl_entry *ring, struct lppaca *vpa, u64 from, u64 to)
{
	for (; from < to; from++) {
		ring[from % N_DISPATCH_LOG].timebase = cpu_to_be64(1000 + from);
		vpa->dtl_idx = cpu_to_be64(from + 1);
	}
}

struct vpa_dtl_test_case {
	const char *name;
	u64 last;	/* entries read before */
	u64 written;	/* entries the hypervisor wrote in all */
	u64 n;		/* copied */
	u64 lost;
};

static const struct vpa_dtl_test_case vpa_dtl_fetch_cases[] = {
	{ "nothing new",		 0,   0,  0,  0 },
	{ "three entries",		 0,   3,  3,  0 },
	{ "a full buffer",		 0,  85, 85,  0 },
	{ "one over: wrap",		 0,  86, 85,  1 },
	{ "100 at once",		 0, 100, 85, 15 },
	{ "after earlier polls",	90, 200, 85, 25 },
	{ "across the slot wrap",	80,  90, 10,  0 },
	{ "far behind",			 5, 100000, 85, 100000 - 5 - 85 },
};

static void vpa_dtl_case_desc(const struct vpa_dtl_test_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vpa_dtl_fetch, vpa_dtl_fetch_cases, vpa_dtl_case_desc);

/* The entries copied are the newest ones, in order; the others are counted. */
static void vpa_dtl_test_fetch(struct kunit *test)
{
	const struct vpa_dtl_test_case *t = test->param_value;
	struct dtl_entry *ring, *out;
	struct lppaca *vpa;
	u64 last = t->last, lost = 0, i;
	unsigned int n;

	ring = kunit_kzalloc(test, DISPATCH_LOG_BYTES, GFP_KERNEL);
	out = kunit_kzalloc(test, DISPATCH_LOG_BYTES, GFP_KERNEL);
	vpa = kunit_kzalloc(test, sizeof(*vpa), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, vpa);

	vpa_dtl_test_log(ring, vpa, t->written > N_DISPATCH_LOG ? t->written - N_DISPATCH_LOG : 0,
			 t->written);
	n = vpa_dtl_fetch(ring, vpa, &last, out, &lost);
	KUNIT_EXPECT_EQ(test, n, t->n);
	KUNIT_EXPECT_EQ(test, lost, t->lost);
	KUNIT_EXPECT_EQ(test, last, max(t->last, t->written));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, be64_to_cpu(out[i].timebase), 1000 + t->written - n + i);
}

/* Entries rewritten while they were copied are dropped, the others kept. */
static void vpa_dtl_test_overwritten(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(0, 85, 85), 0);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(0, 85, 86), 1);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(0, 85, 170), 85);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(0, 85, 1000), 85);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(10, 5, 95), 0);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(10, 5, 97), 2);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(10, 5, 200), 5);
}

static struct kunit_case vpa_dtl_test_cases[] = {
	KUNIT_CASE_PARAM(vpa_dtl_test_fetch, vpa_dtl_fetch_gen_params),
	KUNIT_CASE(vpa_dtl_test_overwritten),
	{}
};

static struct kunit_suite vpa_dtl_test_suite = {
	.name = "vpa_dtl",
	.test_cases = vpa_dtl_test_cases,
};

kunit_test_suite(vpa_dtl_test_suite);
#endif /* CONFIG_VPA_DTL_KUNIT_TEST */
