// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vpa_dtl: the hypervisor's Dispatch Trace Log (DTL) as a perf PMU.
 *
 * On a shared-processor LPAR the hypervisor logs each dispatch of a
 * virtual processor into a per-CPU buffer that the OS registers with
 * H_REGISTER_VPA. A vpa_dtl event (CPU-wide only) registers its own
 * buffer on its CPU while it is scheduled in, polls it with an hrtimer and
 * copies the entries into the perf AUX area, in the layout of
 * <uapi/linux/perf_vpa_dtl.h>: first one native-endian struct
 * vpa_dtl_header, then the entries as the hypervisor wrote them
 * (big-endian). Entries that the hypervisor overwrote before a poll, or
 * that found no room in the AUX area, never enter the stream: the poll that
 * finds them missing flags its PERF_RECORD_AUX PARTIAL and reports their
 * number with a PERF_RECORD_LOST_SAMPLES in the data ring. See
 * Documentation/powerpc/vpa-dtl.rst.
 *
 * The hypervisor stand-in for tests (vpa-dtl-inject.c) and the KUnit cases
 * (vpa-dtl-test.c) are built by their own options; what they use from here
 * is in vpa-dtl.h.
 *
 * Context: ->add(), ->del(), ->start(), ->stop() and the hrtimer run on
 * the event's CPU with interrupts disabled, so they never nest; the
 * buffers are allocated in ->event_init() and freed in ->destroy(), never
 * in ->del(), so an event can be disabled and enabled again at will.
 */

#define pr_fmt(fmt) "vpa_dtl: " fmt

#include <linux/build_bug.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/stddef.h>
#include <uapi/linux/perf_vpa_dtl.h>
#include <asm/dtl.h>
#include <asm/firmware.h>
#include <asm/kvm_guest.h>
#include <asm/lppaca.h>
#include <asm/machdep.h>
#include <asm/paca.h>
#include <asm/plpar_wrappers.h>
#include <asm/time.h>

#include "vpa-dtl.h"

#define VPA_DTL_RECORD		VPA_DTL_RECORD_SIZE
#define VPA_DTL_MIN_PERIOD_NS	NSEC_PER_MSEC
#define VPA_DTL_MAX_PERIOD_NS	(3600 * NSEC_PER_SEC)

/*
 * The AUX stream carries the hypervisor's struct dtl_entry as it is: the
 * uapi struct vpa_dtl_entry that readers decode it with must be the same:
 * the same size, each field at the same offset. The event codes are the
 * DTL enable mask bits.
 */
static_assert(sizeof(struct vpa_dtl_header) == VPA_DTL_RECORD_SIZE);
static_assert(sizeof(struct vpa_dtl_entry) == VPA_DTL_RECORD_SIZE);
static_assert(sizeof(struct dtl_entry) == VPA_DTL_RECORD_SIZE);
static_assert(offsetof(struct vpa_dtl_entry, dispatch_reason) ==
	      offsetof(struct dtl_entry, dispatch_reason));
static_assert(offsetof(struct vpa_dtl_entry, preempt_reason) ==
	      offsetof(struct dtl_entry, preempt_reason));
static_assert(offsetof(struct vpa_dtl_entry, processor_id) ==
	      offsetof(struct dtl_entry, processor_id));
static_assert(offsetof(struct vpa_dtl_entry, enqueue_to_dispatch_time) ==
	      offsetof(struct dtl_entry, enqueue_to_dispatch_time));
static_assert(offsetof(struct vpa_dtl_entry, ready_to_enqueue_time) ==
	      offsetof(struct dtl_entry, ready_to_enqueue_time));
static_assert(offsetof(struct vpa_dtl_entry, waiting_to_ready_time) ==
	      offsetof(struct dtl_entry, waiting_to_ready_time));
static_assert(offsetof(struct vpa_dtl_entry, timebase) ==
	      offsetof(struct dtl_entry, timebase));
static_assert(offsetof(struct vpa_dtl_entry, fault_addr) ==
	      offsetof(struct dtl_entry, fault_addr));
static_assert(offsetof(struct vpa_dtl_entry, srr0) ==
	      offsetof(struct dtl_entry, srr0));
static_assert(offsetof(struct vpa_dtl_entry, srr1) ==
	      offsetof(struct dtl_entry, srr1));
static_assert(VPA_DTL_CEDE == DTL_LOG_CEDE);
static_assert(VPA_DTL_PREEMPT == DTL_LOG_PREEMPT);
static_assert(VPA_DTL_FAULT == DTL_LOG_FAULT);
static_assert(VPA_DTL_ALL == DTL_LOG_ALL);

/*
 * The AUX area of one ring buffer, as given to ->setup_aux(). Each area
 * starts with a header: a new one (the old unmapped, a new one mapped)
 * gets its own, since a consumer reads each area from its start.
 */
struct vpa_dtl_aux {
	void		**pages;
	unsigned long	size;		/* bytes, a power of two */
	bool		overwrite;
	bool		header_done;	/* the header is written */
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
	u8			mask;
	bool			registered;
};

static struct pmu vpa_dtl_pmu;

/*
 * Events that exist: while there is one, the PMU has the DTLs alone
 * (dtl_access_get_exclusive(): debugfs dtl and vcpudispatch_stats get
 * -EBUSY). The first event takes them, the last one gives them back,
 * from whatever task destroys it.
 */
static DEFINE_MUTEX(vpa_dtl_mutex);
static unsigned int vpa_dtl_users;

/* The event whose buffer is registered on each CPU. */
static DEFINE_PER_CPU(struct vpa_dtl_event *, vpa_dtl_owner);

static struct vpa_dtl_event *to_vde(struct perf_event *event)
{
	return event->pmu_private;
}

/* A new event: -EBUSY if debugfs dtl or vcpudispatch_stats has the DTL. */
static int vpa_dtl_get(void)
{
	int ret = 0;

	mutex_lock(&vpa_dtl_mutex);
	if (!vpa_dtl_users && !dtl_access_get_exclusive())
		ret = -EBUSY;
	if (!ret)
		vpa_dtl_users++;
	mutex_unlock(&vpa_dtl_mutex);
	return ret;
}

static void vpa_dtl_put(void)
{
	mutex_lock(&vpa_dtl_mutex);
	if (!WARN_ON_ONCE(!vpa_dtl_users) && !--vpa_dtl_users)
		dtl_access_put_exclusive();
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
VPA_DTL_STATIC_UNLESS_KUNIT u64 vpa_dtl_overwritten(u64 from, u64 n, u64 after)
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
VPA_DTL_STATIC_UNLESS_KUNIT
unsigned int vpa_dtl_fetch(const struct dtl_entry *ring, const struct lppaca *vpa,
			   u64 *last, struct dtl_entry *out, u64 *lost)
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
 *
 * The stream of each AUX area starts with one header, written with the
 * first entries, never alone: upstream's decoder takes the record after the header of the first
 * buffer perf record gives it as an entry, so a buffer that holds only the
 * header makes it read past the buffer. In overwrite mode, where the old one
 * may have been overwritten, the entries of each poll come after a header
 * of their own, and a poll without entries writes nothing: two headers
 * never meet. Entries that do not reach the stream (overwritten by the
 * hypervisor before this poll, or no room for them) are reported by this
 * poll: its PERF_RECORD_AUX is flagged PARTIAL (and TRUNCATED when the AUX
 * area is full), then, once the AUX handle is closed, a
 * PERF_RECORD_LOST_SAMPLES in the data ring gives their number.
 */
static void vpa_dtl_poll(struct vpa_dtl_event *vde)
{
	struct perf_event *event = vde->event;
	struct perf_output_handle handle;
	struct vpa_dtl_header hdr = {
		.boot_tb = boot_tb,
		.tb_freq = tb_ticks_per_sec,
	};
	const struct dtl_entry *first = vde->copy;
	unsigned long written = 0;
	struct vpa_dtl_aux *aux;
	unsigned int n, fit;
	u64 lost = 0;

	if (!vde->registered)
		return;
	n = vpa_dtl_fetch(vde->dtl, local_paca->lppaca_ptr, &vde->last_idx,
			  vde->copy, &lost);
	if (!n && !lost)
		return;

	aux = perf_aux_output_begin(&handle, event);
	if (!aux) {
		/* No AUX area, or a full one (the core is disabling the event). */
		lost += n;
		goto report;
	}

	if (aux->overwrite) {
		/* Only what cannot fit after one header is lost: the oldest. */
		fit = min_t(unsigned long, n, aux->size / VPA_DTL_RECORD - 1);
		first += n - fit;
		if (fit) {
			vpa_dtl_aux_write(aux, handle.head, &hdr, VPA_DTL_RECORD);
			written = VPA_DTL_RECORD;
		}
		aux->header_done = true;
	} else {
		if (!aux->header_done && n && handle.size >= VPA_DTL_RECORD) {
			vpa_dtl_aux_write(aux, handle.head, &hdr, VPA_DTL_RECORD);
			written = VPA_DTL_RECORD;
			aux->header_done = true;
		}
		fit = 0;
		if (aux->header_done)
			fit = min_t(unsigned long, n, (handle.size - written) / VPA_DTL_RECORD);
		if (fit < n)
			perf_aux_output_flag(&handle, PERF_AUX_FLAG_TRUNCATED);
	}
	lost += n - fit;
	vpa_dtl_aux_write(aux, handle.head + written, first, fit * VPA_DTL_RECORD);
	written += fit * VPA_DTL_RECORD;
	if (lost)
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_PARTIAL);
	if (aux->overwrite)
		handle.head += written;
	perf_aux_output_end(&handle, written);
report:
	/*
	 * Not while the AUX handle is open. If the data ring has no room,
	 * the core counts a lost record instead (PERF_RECORD_LOST), and
	 * only the PARTIAL flag above tells that entries were lost.
	 */
	if (lost)
		perf_log_lost_samples(event, lost);
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
 * register_dtl_buffer() does nothing if the kernel has none; else it
 * registers that buffer again with a fresh index, and the accounting scan
 * resumes from there: the steal time of the dispatches logged into our
 * buffer meanwhile is never accounted.
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

	/*
	 * Set the kernel's own DTL aside while the event is scheduled in
	 * here. With CONFIG_VIRT_CPU_ACCOUNTING_NATIVE it feeds the steal
	 * time accounting (scan_dispatch_log(), which does nothing while
	 * dtl_curr is NULL): no steal time is accounted on this CPU until
	 * vpa_dtl_unregister() gives the DTL back. Documented in
	 * Documentation/powerpc/vpa-dtl.rst.
	 */
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

	/*
	 * The hypervisor stops logging first, so that the last poll reads
	 * every entry that it logged into our buffer: none is left behind
	 * uncounted when the buffer is unregistered.
	 */
	if (vde->registered) {
		lppaca_of(smp_processor_id()).dtl_enable_mask = 0;
		mb();	/* the mask is cleared before the index is read */
	}
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

	/*
	 * The checks and their order are those of upstream's PMU of the
	 * same name, so that a caller gets the same errno from either;
	 * config1 and config2 are ignored, as there.
	 */
	if (attr->type != vpa_dtl_pmu.type)
		return -ENOENT;
	if (!perfmon_capable())
		return -EACCES;
	if (!is_sampling_event(event) || has_branch_stack(event))
		return -EOPNOTSUPP;
	switch (attr->config) {
	case VPA_DTL_CEDE:
	case VPA_DTL_PREEMPT:
	case VPA_DTL_FAULT:
	case VPA_DTL_ALL:
		break;
	default:
		return -EINVAL;
	}
	/*
	 * The DTL belongs to a CPU, not to a task (the core refuses a
	 * per-task event anyway: task_ctx_nr is perf_invalid_context).
	 */
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
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

PMU_EVENT_ATTR_STRING(dtl_cede, vpa_dtl_cede, "event=0x01");
PMU_EVENT_ATTR_STRING(dtl_preempt, vpa_dtl_preempt, "event=0x02");
PMU_EVENT_ATTR_STRING(dtl_fault, vpa_dtl_fault, "event=0x04");
PMU_EVENT_ATTR_STRING(dtl_all, vpa_dtl_all, "event=0x07");

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

#if IS_ENABLED(CONFIG_VPA_DTL_INJECT)
/*
 * For the hypervisor stand-in: the DTL a vpa_dtl event registered on this
 * CPU, and in @read the index of the next entry its poll reads. Interrupts
 * are off: the owner cannot change, and no poll runs.
 */
struct dtl_entry *vpa_dtl_this_cpu_buffer(u64 *read)
{
	struct vpa_dtl_event *vde = this_cpu_read(vpa_dtl_owner);

	lockdep_assert_irqs_disabled();
	if (!vde || !vde->registered)
		return NULL;
	*read = vde->last_idx;
	return vde->dtl;
}
#endif

static int __init vpa_dtl_init(void)
{
	int ret;

	if (!firmware_has_feature(FW_FEATURE_SPLPAR) || is_kvm_guest() || !dtl_cache)
		return 0;
	ret = perf_pmu_register(&vpa_dtl_pmu, "vpa_dtl", -1);
	if (ret) {
		pr_err("registration failed: %d\n", ret);
		return ret;
	}
	vpa_dtl_inject_init();
	return 0;
}
machine_device_initcall(pseries, vpa_dtl_init);
