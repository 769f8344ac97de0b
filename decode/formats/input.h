/* SPDX-License-Identifier: MIT */
/*
 * input.h - what a format's reader is to the front end of
 * ehdecode/reader.h (libehdecode, private)
 *
 * reader.c knows no format. It reads the first bytes of an input, asks
 * the readers of ehd__inputs[] (inputs.c) in turn whether they are of
 * their format, opens the input with the first that says yes and then
 * hands each call on through that reader's operations. A reader keeps its
 * state behind an opaque pointer the front end holds, and writes why it
 * failed in the front end's error record, whose reason and offset
 * ehd_reader_error() gives.
 */
#ifndef EHD_FORMATS_INPUT_H
#define EHD_FORMATS_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ehdecode/reader.h>

#include "core/err.h"

struct ehd__eh_sink;
struct ehd__event_internal;
struct ehd_session;

/* Most bytes the front end reads to find the kind of input. */
#define EHD__INPUT_HEAD 8

/*
 * struct ehd__input_src - what a reader opens
 * @flags: the EHD_READER_* flags of ehd_reader_new()
 * @name: the input's name, for messages
 * @fd: the input, -1 with @session; the front end's (not closed by a
 *	reader)
 * @seekable: @fd is a regular file: read from offset 0
 * @size: @fd's size when @seekable, else UINT64_MAX
 * @head: the first @nhead bytes of the input, already read: a reader that
 *	reads on from where @fd is gives them first (see
 *	ehd__input_after_head())
 * @nhead: 1 to EHD__INPUT_HEAD (fewer when the input is shorter)
 * @session: a live session's stream (ehd_reader_open_session()), or NULL
 * @err: the front end's error record: a reader keeps the pointer and sets
 *	it when it fails
 */
struct ehd__input_src {
	unsigned int flags;
	const char *name;
	int fd;
	bool seekable;
	uint64_t size;
	const uint8_t *head;
	size_t nhead;
	struct ehd_session *session;
	struct ehd__err *err;
};

/*
 * struct ehd__input_ops - a format's reader
 * @name: short name of the format
 * @what: what its inputs are, for "not ..." when no reader knows one
 * @kinds: 1u << each enum ehd_input_kind it opens inputs as
 *	(EHD_INPUT_SESSION: ehd_reader_open_session() uses it)
 * @probe: do the first @n bytes of an input start one of its format?
 * @state_size: the size of the reader's state, which the front end
 *	allocates zeroed before @open and frees after @free
 * @open: open @src into @state. Return: the enum ehd_input_kind it
 *	opened, or a negative errno (@src->err set); @free is called either
 *	way
 * @next: as ehd_reader_next(): 1 with an event in *@ev, 0 at the end, or a
 *	negative errno. A failure sets the error record, and the front end
 *	returns it from then on; -EAGAIN without it is a live session's
 *	"nothing now"
 * @pass: @next, handing the EventHeader events it can as rows to @sink
 *	(model/eh-row.h) until @sink->max are taken, when it returns 1 with
 *	*@ev left NULL (may be NULL: @next is used)
 * @trace_info: fill in what the input says about the recording (@info
 *	comes zeroed, its clockid -1)
 * @stats: set what the reader counted in @stats (the front end sets
 *	@stats->events and @stats->passed after it)
 * @free: free what the state holds (not the state itself)
 */
struct ehd__input_ops {
	const char *name;
	const char *what;
	unsigned int kinds;
	size_t state_size;
	bool (*probe)(const uint8_t *head, size_t n);
	int (*open)(void *state, const struct ehd__input_src *src);
	int (*next)(void *state, const struct ehd_event **ev);
	int (*pass)(void *state, const struct ehd_event **ev,
		    struct ehd__eh_sink *sink);
	void (*trace_info)(void *state, struct ehd_trace_info *info);
	void (*stats)(const void *state, struct ehd_reader_stats *stats);
	void (*free)(void *state);
	void (*restate)(void *state);
};

/* The readers, in the order their probes are asked; NULL after the last. */
extern const struct ehd__input_ops *const ehd__inputs[];

/*
 * ehd__input_after_head() - have @src->fd read on after the head bytes:
 * a regular file (read by the front end with pread(2)) is moved there
 * Return: 0, or a negative errno with @src->err set.
 */
int ehd__input_after_head(const struct ehd__input_src *src);

/*
 * ehd__identify() - make @ev an EventHeader event when its @data are one
 * @en: the reader's enumerator, started on them
 * @in: behind @ev->internal
 *
 * Return: 0 with the identity in @ev, or why the data are not an
 * EventHeader event (also in @ev->decode_error, decode_reason and
 * decode_offset), which the reader counts in not_eventheader.
 */
int ehd__identify(struct ehd_enum *en, struct ehd_event *ev,
		  struct ehd__event_internal *in, const uint8_t *data,
		  size_t size);

#endif /* EHD_FORMATS_INPUT_H */
