/* SPDX-License-Identifier: MIT */
/*
 * chrome-writer.h - events written as Chrome / Perfetto trace JSON, the
 * Trace Event Format (libehdecode, private; used through
 * ehdecode/writer.h; docs/chrome-trace.md says how events are mapped)
 *
 *	{"traceEvents":[
 *	{"name":"process_name","ph":"M","pid":7,"args":{"name":"app"}},
 *	{"name":"Work","cat":"Prov","ph":"B","ts":0.000,"pid":7,"tid":7,"args":{...}},
 *	{"name":"Step","cat":"Prov","ph":"i","s":"t","ts":1.250,...},
 *	{"name":"Work","cat":"Prov","ph":"E","ts":2.001,...}
 *	],"displayTimeUnit":"ns","otherData":{...}}
 *
 * Activities (opcode 1 ... opcode 2 with the same activity id on the same
 * thread) become "B"/"E" pairs written as the events come, every other
 * event an instant ("ph":"i"); "ts" is in microseconds with three
 * decimals (exact nanoseconds), counted from the first event with a time.
 */
#ifndef EHD_CHROME_WRITER_H
#define EHD_CHROME_WRITER_H

#include "core/ehd-buf.h"

struct ehd__chrome;
struct ehd_enum;
struct ehd_event;
struct ehd_writer_stats;

/* A new writer state; appends the start of the document to @b. */
int ehd__chrome_new(struct ehd__chrome **cp, struct ehd_buf *b);
void ehd__chrome_free(struct ehd__chrome *c);

/*
 * ehd__chrome_event() - append the trace events of @ev to @b
 * @en: started on the fields of @ev (ehd_event_fields())
 * @jflags: EHD__JF_* (only EHD__JF_FIELD_TAGS applies)
 * @meta: EHD_META_* bits; those the trace event already says (n, time,
 *	pid, tid, provider, event) are left out of "args"
 *
 * Return: 0; on damage found while walking the fields, the enumerator's
 * negative errno with nothing appended and nothing changed; -ENOMEM.
 */
int ehd__chrome_event(struct ehd__chrome *c, struct ehd_buf *b,
		      const struct ehd_event *ev, struct ehd_enum *en,
		      unsigned int jflags, unsigned int meta);

/* The end of a source: its activities still open end at its last time. */
void ehd__chrome_end_source(struct ehd__chrome *c, struct ehd_buf *b);

/*
 * Append the end of the document (after the last source's end), with the
 * counts of @st (the writer's, all events in) in otherData.
 */
void ehd__chrome_close(struct ehd__chrome *c, struct ehd_buf *b,
		       const struct ehd_writer_stats *st);

/* Fill in the activity and time counts of @st. */
void ehd__chrome_stats(const struct ehd__chrome *c,
		       struct ehd_writer_stats *st);

#endif /* EHD_CHROME_WRITER_H */
