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
 *	reader (drain)          writer front end        format
 *	  known identity? ─row─► ehd__writer_take() ──► ops->row()
 *	  no / declined ──► ehd_event ──► ehd_writer_event()
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

/*
 * struct ehd__eh_sink - where a reader hands rows (ehd_reader_pass())
 * @take: 1 when the row is written (the writer counts it), 0 when it is
 *	declined and nothing changed
 * @ctx: for @take
 * @taken: rows taken so far; the reader gives back once it is @max
 */
struct ehd__eh_sink {
	int (*take)(void *ctx, const struct ehd__eh_row *row);
	void *ctx;
	uint64_t taken, max;
};

struct ehd_writer;

/*
 * ehd__writer_sink() - @sink set to take rows into @w (writer.c)
 * Return: false when @w's format takes none.
 */
bool ehd__writer_sink(struct ehd_writer *w, struct ehd__eh_sink *sink);

#endif /* EHD_EH_ROW_H */
