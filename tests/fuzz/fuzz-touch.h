/* SPDX-License-Identifier: MIT */
/*
 * fuzz-touch.h - what the reader fuzz targets share: every byte the
 * library hands out is read, so that ASan sees a bad pointer or length
 * there and not only in the library's own use of it. Included by one
 * file of each target.
 */
#ifndef EHD_FUZZ_TOUCH_H
#define EHD_FUZZ_TOUCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ehdecode/event.h>
#include <ehdecode/reader.h>

/* Events read from one input, at the most. */
#define MAX_EVENTS 100000

/*
 * An input may be a perf.data file: libtraceevent 1.7 leaks what it
 * allocated for formats it then fails to parse, not ours to fix, so
 * LeakSanitizer is told to ignore it.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static volatile uint8_t sink;

static inline void touch(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t x = 0;
	size_t i;

	if (!p)
		return;
	for (i = 0; i < n; i++)
		x ^= b[i];
	sink ^= x;
}

static inline void touch_str(const char *s)
{
	if (s)
		touch(s, strlen(s) + 1);
}

static inline void touch_info(const struct ehd_event_info *info)
{
	if (!info)
		return;
	touch(info->tracepoint, info->tracepoint_len);
	touch_str(info->name);
	touch(info->activity_id, 16);
	touch(info->related_id, 16);
}

static inline void touch_trace_info(const struct ehd_trace_info *ti)
{
	if (!ti)
		return;
	touch_str(ti->hostname);
	touch_str(ti->osrelease);
	touch_str(ti->arch);
	touch_str(ti->cpu_desc);
	touch_str(ti->perf_version);
	touch_str(ti->cmdline);
	sink ^= (uint8_t)(ti->nr_cpus_online ^ ti->nr_cpus_avail ^
			  (uint32_t)ti->clockid ^ ti->clock_offset ^
			  ti->long_size ^ ti->page_size ^ ti->format_version ^
			  ti->cpu_sample_period);
}

static inline void touch_event(const struct ehd_event *ev)
{
	touch(ev->provider, ev->provider_len);
	touch(ev->name, ev->name_len);
	touch(ev->tracepoint, ev->tracepoint_len);
	touch_info(ev->eh);
	touch(ev->activity_id, 16);
	touch(ev->related_id, 16);
	if (ev->context & EHD_CTX_CALLCHAIN)
		touch(ev->callchain, ev->callchain_count * sizeof(uint64_t));
	touch(ev->data, ev->size);
	touch(ev->record, ev->record_size);
	if (ev->decode_error)
		touch_str(ev->decode_reason);
}

#endif /* EHD_FUZZ_TOUCH_H */
