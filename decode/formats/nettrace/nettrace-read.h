/* SPDX-License-Identifier: MIT */
/*
 * nettrace-read.h - the nettrace reader (libehdecode, private)
 *
 * nettrace-read.c reads version 6 and turns event rows into struct
 * ehd_event; nettrace-legacy.c reads versions 3 to 5 (the FastSerialization
 * framing) and hands the core what it found, in version-6 terms:
 *  - metadata as v6 metadata rows (ehd__nt_add_metadata()),
 *  - stack blocks, whose layout did not change (ehd__nt_add_stacks()),
 *  - event rows (struct ehd__nt_row, from ehd__ntl_next()),
 *  - the trace object (ehd__nt_set_trace()).
 * Input is read through ehd__nt_read(), which keeps the bytes it returns
 * valid until the next call.
 */
#ifndef EHD_NETTRACE_READ_H
#define EHD_NETTRACE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ehd__nt;
struct ehd__procs;
struct ehd_event;
struct ehd_trace_info;

/* ---- the reader ---- */

/* Starts with "Nettrace", or is a netperf (v3) stream? (@n >= 8 bytes) */
bool ehd__nt_is_nettrace(const uint8_t *h, size_t n);

/*
 * ehd__nt_open() - start reading @fd after the @npre bytes at @pre (the
 * bytes already read to find the kind of input)
 * @strict: also refuse what TraceEvent refuses (see nettrace-read.c)
 * Return: 0, or a negative errno with ehd__nt_error() set.
 */
int ehd__nt_open(struct ehd__nt **ntp, int fd, const uint8_t *pre,
		 size_t npre, bool strict);
void ehd__nt_free(struct ehd__nt *nt);

/* 1 with an event (valid until the next call), 0 at the end, or < 0. */
int ehd__nt_next(struct ehd__nt *nt, const struct ehd_event **ev);

/* Trace information, events counted lost. */
void ehd__nt_trace_info(const struct ehd__nt *nt, struct ehd_trace_info *info);
uint64_t ehd__nt_lost(const struct ehd__nt *nt);
/* Rows skipped as malformed, events with a dangling reference. */
uint64_t ehd__nt_malformed(const struct ehd__nt *nt);
uint64_t ehd__nt_dangling(const struct ehd__nt *nt);

/* Stacks of the events are attributed with @ps (ehd_event_frames()). */
void ehd__nt_set_procs(struct ehd__nt *nt, struct ehd__procs *ps);

/* Why the last call failed, and where (input offset). */
const char *ehd__nt_error(const struct ehd__nt *nt, uint64_t *offset);

/* ---- used by nettrace-legacy.c ---- */

/*
 * ehd__nt_read() - the next @n bytes of input
 * @p: gets them, valid until the next ehd__nt_read()
 * Return: 0, -EBADMSG if the input ends first (with the error set to
 * "truncated ..." at the current offset), or another negative errno.
 */
int ehd__nt_read(struct ehd__nt *nt, size_t n, const uint8_t **p);

/* Input offset of the next byte ehd__nt_read() gives. */
uint64_t ehd__nt_offset(const struct ehd__nt *nt);

/* Set the error (first one wins) and return @err. */
int ehd__nt_fail(struct ehd__nt *nt, int err, uint64_t offset,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * What a version 3-5 trace object says. Times are in ticks of
 * @tick_frequency per second; @sync_ticks is the tick count at @sync_utc.
 */
struct ehd__nt_trace {
	int16_t year, month, day_of_week, day, hour, minute, second, ms;
	uint64_t sync_ticks;
	uint64_t tick_frequency;
	uint32_t pointer_size;
	uint32_t process_id;
	uint32_t cpus;
	uint32_t sampling_rate;
};

void ehd__nt_set_trace(struct ehd__nt *nt, const struct ehd__nt_trace *t,
		       unsigned int version);

/*
 * ehd__nt_add_metadata() - define an event type
 * @row: a v6 metadata row after its u16 size: varuint32 id, provider,
 *	varuint32 event id, name, field descriptions, optional metadata
 * @len: its length
 * @offset: input offset of the row, for messages
 * Return: 0 or a negative errno (error set).
 */
int ehd__nt_add_metadata(struct ehd__nt *nt, const uint8_t *row, size_t len,
			 uint64_t offset);

/* A stack block's payload (u32 first id, u32 count, stacks). */
int ehd__nt_add_stacks(struct ehd__nt *nt, const uint8_t *p, size_t len,
		       uint64_t offset);

/* A sequence point: stacks (and, in v6, what @flags say) are forgotten. */
void ehd__nt_sequence_point(struct ehd__nt *nt, unsigned int flags);

/*
 * struct ehd__nt_row - one event row, as found
 * @offset: input offset of the row
 * @meta_id: its metadata
 * @has_seq: @seq and @capture_thread are meaningful
 * @seq: sequence number on @capture_thread
 * @capture_thread: v6: thread index; v3-5: OS thread id
 * @thread: v6: thread index; v3-5: unused (see @pid, @tid)
 * @os_ids: @pid and @tid are given (v3-5) instead of a thread index
 * @pid, @tid: with @os_ids
 * @cpu: processor number
 * @stack_id: stack of the event in the stack cache, 0 for none
 * @stack: v3: the stack given inline, or NULL (@stack_size bytes)
 * @timestamp: ticks
 * @label_list: v6 label list index, 0 for none
 * @activity, @related: v3-5: 16-byte ids, or NULL
 * @sorted: the IsSorted flag
 * @payload: the event's fields
 * @payload_size: bytes at @payload
 */
struct ehd__nt_row {
	uint64_t offset;
	uint32_t meta_id;
	bool has_seq;
	uint32_t seq;
	uint64_t capture_thread;
	uint64_t thread;
	bool os_ids;
	uint32_t pid;
	uint64_t tid;
	uint32_t cpu;
	uint32_t stack_id;
	const uint8_t *stack;
	uint32_t stack_size;
	uint64_t timestamp;
	uint32_t label_list;
	const uint8_t *activity;
	const uint8_t *related;
	bool sorted;
	const uint8_t *payload;
	uint32_t payload_size;
};

/*
 * The legacy part (nettrace-legacy.c). ehd__ntl_open() is called with the
 * @n bytes the core already read from the start of the stream in @h: 12
 * for "Nettrace" + the int32 20 that starts "!FastSerialization.1" (v4,
 * v5), 8 for a netperf stream (int32 20, "!Fas"; v3). The state it needs
 * lives behind *@state and is freed by ehd__ntl_free(). ehd__ntl_next()
 * gives the next event row: 1, 0 at the end of the stream, or a negative
 * errno with the error set.
 */
int ehd__ntl_open(struct ehd__nt *nt, void **state, const uint8_t *h,
		  size_t n);
int ehd__ntl_next(struct ehd__nt *nt, void *state, struct ehd__nt_row *row);
void ehd__ntl_free(void *state);
/* Event rows skipped (v4/v5: metadata id 0, which has no metadata). */
uint64_t ehd__ntl_skipped(const void *state);

#endif /* EHD_NETTRACE_READ_H */
