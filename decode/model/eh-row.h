/* SPDX-License-Identifier: MIT */
/*
 * eh-row.h - an EventHeader event handed from a reader to a writer
 * without an ehd_event (libehdecode, private; see ehd_reader_pass())
 *
 * Most events of a recording are of a few types seen many times. For
 * those, a reader that knows the event's bytes up to its payload are
 * those of an identity the enumerator worked out before (the same
 * ehd__enum_key()) can say the rest in a few words: when, where, whose,
 * and the payload. A writer that has already written an event of that
 * identity takes the row as it would have taken the event, byte for
 * byte, or declines it; a declined row is made an ehd_event as usual.
 *
 *	reader (drain)                                  format
 *	  known identity? ─rows─────────────────────────► ops->rows()
 *	  no / declined ──► ehd_event ──► ehd_writer_event() ──► ops->event()
 *
 * The writer front end hands the reader its format's rows() for a pass
 * (ehd__writer_sink()) and counts what was taken after it
 * (ehd__writer_sink_end()). The reader hands the rows of consecutive
 * samples together (up to EHD__ROWS_BATCH): one call per batch, none
 * through the front end, and the writer keeps what the rows share (the
 * type, the thread) from one to the next.
 */
#ifndef EHD_EH_ROW_H
#define EHD_EH_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * struct ehd__eh_row - an EventHeader event without a stack or activity
 * ids, of an identity worked out before
 * @key: ehd__enum_key() of its identity (nonzero)
 * @context: EHD_CTX_TIME (always), EHD_CTX_TIME_UTC, EHD_CTX_CPU and
 *	EHD_CTX_PID as the event would have them
 * @time, @cpu, @pid, @tid: as ehd_event's
 * @names_gen: as ehd__event_names_gen() of the event
 * @payload: its payload (after the metadata), @payload_size bytes
 */
struct ehd__eh_row {
	uint64_t key;
	unsigned int context;
	uint64_t time;
	uint32_t cpu, pid, tid;
	uint64_t names_gen;
	const uint8_t *payload;
	size_t payload_size;
};

struct ehd__out;
struct ehd_writer;

/* Rows a reader hands in one call at most. */
#define EHD__ROWS_BATCH 64

/*
 * struct ehd__eh_sink - where a reader hands rows (ehd_reader_pass())
 * @take: the format's rows() (formats/output.h), called directly with
 *	@n rows: it takes them in order up to the first it declines (which
 *	and those after it are left as they were) and says in *@taken how
 *	many; returns 0, or < 0 when the last row it took failed the output
 * @o: for @take
 * @taken: rows taken so far; the reader gives back once it is @max, or
 *	once @err is set
 * @err: the failure of a @take, 0 while none
 */
struct ehd__eh_sink {
	int (*take)(struct ehd__out *o, const struct ehd__eh_row *rows,
		    size_t n, size_t *taken);
	struct ehd__out *o;
	uint64_t taken, max;
	int err;
};

/*
 * ehd__writer_sink() - @sink set to take rows into @w (writer.c)
 * Return: false when @w's format takes none, or takes nothing now.
 */
bool ehd__writer_sink(struct ehd_writer *w, struct ehd__eh_sink *sink);

/*
 * ehd__writer_sink_end() - what @sink took, counted in @w as
 * ehd_writer_event() counts events (writer.c)
 */
void ehd__writer_sink_end(struct ehd_writer *w,
			  const struct ehd__eh_sink *sink);

#endif /* EHD_EH_ROW_H */
