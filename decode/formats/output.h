/* SPDX-License-Identifier: MIT */
/*
 * output.h - an output format as the writer front end (decode/writer.c)
 * sees it: one struct ehd__output_ops per format, listed in
 * ehd__outputs[] (formats/outputs.c). Adding a format is a folder under
 * formats/, a line in that table and its sources in Makefile.am.
 *
 * The front end keeps what every format shares: the descriptor, a
 * buffer it writes out in large writes (whole events, so that its UTF-8
 * check never cuts a character), the enumerator an event's fields are
 * walked with, the counts common to all (events, bytes, trailing data,
 * cut fields, losses) and the error of the last event. A buffered
 * format only appends to o->buf. A format that writes its own output
 * (EHD__OUT_OWN_IO: nettrace's windows) gets the descriptor, walks the
 * fields itself and keeps every count.
 */
#ifndef EHD_FORMATS_OUTPUT_H
#define EHD_FORMATS_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ehdecode/event.h>
#include <ehdecode/trace.h>

#include "core/ehd-buf.h"

struct ehd_enum;
struct ehd__eh_row;

/* Properties of a format (ehd__output_ops.caps). */
#define EHD__OUT_UTF8		0x1u	/* always well-formed UTF-8 */
#define EHD__OUT_UTF8_OPT	0x2u	/* ... with EHD_WRITER_UTF8_STRICT */
#define EHD__OUT_OWN_IO		0x4u	/* writes and counts on its own */

/**
 * struct ehd__out - what the front end gives a format
 * @buf: where a buffered format appends its output
 * @fd: the descriptor (EHD__OUT_OWN_IO formats write to it)
 * @flags: EHD_WRITER_* given to ehd_writer_new()
 * @meta: EHD_META_* given to ehd_writer_new()
 * @sources: sources begun before the current one
 * @source_events: events of the current source before this one (the
 *	rows of a pass, ehd_reader_pass(), counted once it is over)
 * @marks: the output is a regular file, which the front end may cut back
 *	to the end of an event when it finds no room: a format with @rewind
 *	keeps what it needs to be taken back (set before create())
 * @state: the format's own, made by its create()
 */
struct ehd__out {
	struct ehd_buf *buf;
	int fd;
	unsigned int flags;
	unsigned int meta;
	uint64_t sources;
	uint64_t source_events;
	bool marks;
	void *state;
};

/**
 * struct ehd__output_ops - one output format
 * @name: its name for users (ehdecode -F NAME)
 * @format: its enum ehd_output_format
 * @caps: EHD__OUT_*
 * @props: EHD_FORMAT_* it tells users (ehd_writer_format())
 * @flags: the EHD_WRITER_* flags it takes
 * @create: make o->state (may be NULL: no state); may append the start
 *	of the output to o->buf
 * @destroy: free o->state (may be NULL)
 * @begin: a new source named @name, with what its input says about the
 *	recording (@info, may be NULL) (may be NULL)
 * @event: one event. A buffered format renders @ev, whose fields the
 *	front end has started in @en, and returns < 0 with nothing appended
 *	when its data are damaged (the front end then writes the record as
 *	it is). An EHD__OUT_OWN_IO format does all: on damage it returns
 *	< 0 with *@why set (and *@where, the byte of the event's data), or
 *	writes the event as best it can
 * @rows: EventHeader events as rows (model/eh-row.h), @n of them in
 *	order, each taken if the format can take it as it would take its
 *	event; it stops at the first it declines. *@taken: how many were
 *	taken; returns 0, or < 0 when the last taken failed the output (may
 *	be NULL)
 * @end: the end of the current source (may be NULL)
 * @flush: write out what is held (may be NULL: the front end writes its
 *	buffer out)
 * @close: the end of the output; @st holds every count so far, for a
 *	format that writes them in its trailer (may be NULL)
 * @stats: the format's own counts, over what the front end counted
 *	(may be NULL)
 * @add_lost: @n events lost before the writer saw them (may be NULL)
 * @set_limit: the output, once closed, may not pass @bytes: an event
 *	that would make it is refused with -EFBIG, as are all after it
 *	(may be NULL: the format cannot)
 * @snap_size, @mark, @rewind, @settle: a buffered format whose ending
 *	(its @end and @close) depends on the events before it (activities
 *	left open, counts in a trailer), that can be taken back to where the
 *	front end cuts a file short (with o->marks only; may be NULL, the
 *	ending then rendered once, as it is at the cut). @mark: note in
 *	@snap (@snap_size bytes) what is needed to take the format back to
 *	where it is now, after an event (or a source's start). @rewind: take
 *	it back to @snap, to render its ending as it would have been there;
 *	each @snap older than the one before, and it may take the changes
 *	its ending then makes back too. @settle: no @rewind will go back
 *	past @snap (each one at or after the one before, and after no
 *	@rewind): what only that needed may go.
 */
struct ehd__output_ops {
	const char *name;
	int format;
	unsigned int caps;
	unsigned int props;
	unsigned int flags;
	int (*create)(struct ehd__out *o);
	void (*destroy)(struct ehd__out *o);
	int (*begin)(struct ehd__out *o, const char *name,
		     const struct ehd_trace_info *info);
	int (*event)(struct ehd__out *o, const struct ehd_event *ev,
		     struct ehd_enum *en, const char **why, uint64_t *where);
	int (*rows)(struct ehd__out *o, const struct ehd__eh_row *rows,
		    size_t n, size_t *taken);
	int (*end)(struct ehd__out *o);
	int (*flush)(struct ehd__out *o);
	int (*close)(struct ehd__out *o, const struct ehd_writer_stats *st);
	void (*stats)(const struct ehd__out *o, struct ehd_writer_stats *st);
	void (*add_lost)(struct ehd__out *o, uint64_t n);
	int (*set_limit)(struct ehd__out *o, uint64_t bytes);
	size_t snap_size;
	void (*mark)(struct ehd__out *o, void *snap);
	void (*rewind)(struct ehd__out *o, const void *snap);
	void (*settle)(struct ehd__out *o, const void *snap);
};

/* Every output format, NULL-terminated (formats/outputs.c). */
extern const struct ehd__output_ops *const ehd__outputs[];

#endif /* EHD_FORMATS_OUTPUT_H */
