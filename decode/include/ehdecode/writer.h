/* SPDX-License-Identifier: MIT */
/*
 * ehdecode/writer.h - write events as JSON, JSON lines, text, nettrace,
 * Chrome / Perfetto trace JSON or a Heph trace
 *
 *	struct ehd_writer *w = ehd_writer_new(EHD_OUT_JSONL, STDOUT_FILENO,
 *					      0, EHD_META_DEFAULT);
 *
 *	ehd_writer_begin(w, "perf.data");
 *	while (ehd_reader_next(r, &ev) > 0)
 *		if (ehd_writer_event(w, ev) < 0)
 *			warn(ehd_writer_error(w, &offset));
 *	ehd_writer_end(w);
 *	err = ehd_writer_close(w);
 *	ehd_writer_free(w);
 *
 * The forms:
 *  - EHD_OUT_JSON: one document, the shape of the reference's
 *    perf-decode: {"<source>": [ <event>, ... ], ...}, events one per
 *    line; with EHD_WRITER_SPACE the layout of its Space flag.
 *  - EHD_OUT_JSONL: one event object per line, nothing else (for jq).
 *  - EHD_OUT_TEXT: one line per event: time, [cpu], pid/tid,
 *    provider:event, then name=value for each field (values as in JSON),
 *    then the non-zero identity values after a '|'.
 *  - EHD_OUT_NETTRACE: a nettrace v6 stream (the .NET/PerfView trace
 *    format), written one window of about 1 MiB of events at a time, each
 *    window sorted by time; docs/nettrace-mapping.md says how events and
 *    fields are mapped. Give it the trace information of the source with
 *    ehd_writer_begin_trace(). Flags and meta bits do not apply.
 *  - EHD_OUT_CHROME: one Trace Event Format document (chrome://tracing,
 *    ui.perfetto.dev): {"traceEvents":[...],"displayTimeUnit":"ns",...}.
 *    An activity (an event of opcode 1, then one of opcode 2 with the
 *    same activity id on the same thread) becomes a "B"/"E" pair, every
 *    other event an instant ("ph":"i"); "name" is the event's name, "cat"
 *    its provider, "args" its fields and the meta bits chosen (less those
 *    the trace event says itself: n, time, pid, tid, provider, event).
 *    "ts" is in microseconds with three decimals, exact, counted from the
 *    first event that has a time; an event without one takes the time of
 *    the event before it. Process and thread names come as "M" events,
 *    again when they change. Events should come in time order (the
 *    reader's EHD_READER_SORT_TIME). docs/chrome-trace.md says how
 *    unmatched starts and stops are written. Only EHD_WRITER_FIELD_TAGS
 *    of the flags applies.
 *  - EHD_OUT_HEPH: a Heph trace (the Heph runtime's binary trace format,
 *    big-endian packets; docs/heph.md): an epoch metadata packet (the
 *    UTC time of the first event; none when the source has no UTC
 *    time), then one event packet per event, stream id = pid, substream
 *    id = tid, description "provider:event", fields as attributes
 *    (numbers as u64, i64 and f64, text as strings, arrays of those as
 *    arrays, anything else as the text of its JSON rendering). An
 *    activity start and the stop of the same activity id are one packet
 *    from the start's time to the stop's; starts never stopped are
 *    written when the source ends, with end = start (counted). Events
 *    without time are written at time 0 (counted). Flags and meta bits
 *    do not apply.
 *
 * An event object is {"n":"Provider:Event", <fields>, "meta":{...}} with
 * values rendered by the reference decoder's rules; which "meta" members
 * appear is chosen with EHD_META_* bits (the reference's values).
 *
 * Output is buffered and written to the descriptor in large writes; a
 * failed write is kept and returned by ehd_writer_close().
 */
#ifndef EHDECODE_WRITER_H
#define EHDECODE_WRITER_H

#include <stdint.h>

#include <ehdecode/common.h>
#include <ehdecode/event.h>
#include <ehdecode/reader.h>
#include <ehdecode/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * ehd_writer_format() - an output format by its name
 * @name: "json", "jsonl", "text", "nettrace", "chrome", "heph", ...
 * @props: gets its EHD_FORMAT_* (may be NULL)
 *
 * Return: its enum ehd_output_format, or -EINVAL for a name no format
 * has.
 */
EHD_API int ehd_writer_format(const char *name, unsigned int *props);

/**
 * ehd_writer_format_name() - the name of an output format
 * @format: enum ehd_output_format
 *
 * Return: its name (static), or NULL when no format has that value;
 * the values start at 1 and have no gaps, so a loop from 1 to the first
 * NULL lists every format.
 */
EHD_API const char *ehd_writer_format_name(int format);

struct ehd_writer;

/**
 * ehd_writer_new() - make a writer
 * @format: enum ehd_output_format
 * @fd: where to write; stays the caller's
 * @flags: EHD_WRITER_* bits
 * @meta: EHD_META_* bits
 *
 * Return: the writer, or NULL with errno set (EINVAL, ENOMEM).
 */
EHD_API struct ehd_writer *ehd_writer_new(int format, int fd,
					  unsigned int flags,
					  unsigned int meta);

/**
 * ehd_writer_begin() - start the events of one source
 * @w: the writer
 * @name: the source's name (the JSON member name)
 *
 * Return: 0 or a negative errno.
 */
EHD_API int ehd_writer_begin(struct ehd_writer *w, const char *name);

/**
 * ehd_writer_event() - write one event
 * @w: the writer, in a source
 * @ev: the event
 *
 * An event of an EventHeader tracepoint whose data are damaged is still
 * written, with the fields of its tracefs format (or its bytes); the
 * damage is then returned.
 *
 * Return: 0; for damaged EventHeader data -EBADMSG, -ENOTSUP, -EOVERFLOW
 * or -E2BIG, with ehd_writer_error() saying where and why (the output goes
 * on); -EFBIG once the file found no room (ehd_writer_stats() @no_room:
 * it is complete, and takes no more); nettrace: -E2BIG with
 * ehd_writer_error() NULL for an event too large to be written (skipped
 * and counted; the output goes on), -ENOTSUP for an event read from
 * nettrace or a Heph trace (not converted); -ENOMEM or the errno of a
 * failed write, with ehd_writer_error() NULL (the output is lost).
 */
EHD_API int ehd_writer_event(struct ehd_writer *w, const struct ehd_event *ev);

/**
 * ehd_writer_begin_trace() - start the events of one source, with what is
 * known of its recording
 * @w: the writer
 * @name: the source's name
 * @info: from ehd_reader_trace_info(), or NULL. nettrace takes the first
 *	source's: machine, clock and sync time; the times of later sources
 *	are put on the first one's clock through their UTC offsets
 * Return: 0 or a negative errno.
 */
EHD_API int ehd_writer_begin_trace(struct ehd_writer *w, const char *name,
				   const struct ehd_trace_info *info);

/**
 * ehd_writer_end() - end the events of the current source
 * @w: the writer
 *
 * Return: 0 or a negative errno.
 */
EHD_API int ehd_writer_end(struct ehd_writer *w);

/**
 * ehd_writer_flush() - write what output is buffered
 * @w: the writer
 *
 * For live output: the text formats, CSV and Heph are written in large
 * pieces otherwise. nettrace to a regular file goes out a window (about
 * 1 MiB of events) at a time regardless; to a pipe, a terminal or a
 * socket, a flush ends the window held (with a sequence point), so that
 * a reader sees the events so far.
 *
 * Return: 0, or the first write error (a negative errno).
 */
EHD_API int ehd_writer_flush(struct ehd_writer *w);

/**
 * ehd_writer_add_lost() - count events the source lost
 * @w: the writer, not closed
 * @n: events lost before they reached it (a full ring buffer, a gap in a
 *	file's sequence numbers: ehd_reader_stats().lost,
 *	ehd_session_stats().lost)
 *
 * The total is written in the output where its format has a place for
 * it: nettrace's trace key "ehd:EventsLost" (when the output can be
 * rewritten at its start: a regular file), Chrome's otherData
 * "eventsLost". JSON, text and Heph have none.
 */
EHD_API void ehd_writer_add_lost(struct ehd_writer *w, uint64_t n);

/**
 * ehd_writer_set_limit() - bound the size of the output
 * @w: the writer, before its first event
 * @bytes: the most bytes the output may have once closed
 *
 * An event that would take the output past @bytes (with what closing it
 * adds) is refused whole with -EFBIG, and so is every event after it:
 * the output closes complete and within the bound. nettrace only.
 *
 * Return: 0, -ENOTSUP for another format, -EINVAL when @bytes cannot
 * even hold an empty output.
 */
EHD_API int ehd_writer_set_limit(struct ehd_writer *w, uint64_t bytes);

/**
 * ehd_writer_close() - finish the output and write what is buffered
 * @w: the writer (ends an open source)
 *
 * Return: 0, or the first write error (a negative errno). A file that
 * found no room (ehd_writer_stats() @no_room) returns that error too,
 * although it is complete up to where it was cut.
 */
EHD_API int ehd_writer_close(struct ehd_writer *w);

/**
 * ehd_writer_error() - why the last ehd_writer_event() failed
 * @w: the writer
 * @offset: gets the input offset of the event (may be NULL)
 *
 * Return: the reason (owned by @w), or NULL.
 */
EHD_API const char *ehd_writer_error(const struct ehd_writer *w,
				     uint64_t *offset);

/**
 * ehd_writer_stats() - counts so far
 * @w: the writer
 * @stats: gets them
 */
EHD_API void ehd_writer_stats(const struct ehd_writer *w,
			      struct ehd_writer_stats *stats);

/**
 * ehd_writer_free() - free a writer (without finishing its output)
 * @w: the writer, or NULL
 */
EHD_API void ehd_writer_free(struct ehd_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* EHDECODE_WRITER_H */
