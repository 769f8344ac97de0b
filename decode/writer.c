// SPDX-License-Identifier: MIT
/*
 * writer.c - the writer front end: it finds the output format in
 * ehd__outputs[] (formats/output.h) and does what every format shares:
 * walking an event's fields, writing a damaged event as its record,
 * buffering and writing out, UTF-8 repair, the counts and the errors
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include <ehdecode/writer.h>

#include "core/ehd-buf.h"
#include "core/io.h"
#include "model/eh-row.h"
#include "model/enumerator-int.h"
#include "model/event-int.h"
#include "formats/output.h"
#include "core/utf8.h"

/* Write the buffer out once it holds this much. */
#define FLUSH_AT (256u * 1024)
/* Ends of events kept from before the buffer (cut_short()). */
#define ENDS_KEPT 64

/* Where the output may end, its ending written after it (cut_short()). */
struct end_at {
	uint64_t at;		/* output offset */
	uint64_t events;	/* the events before it */
	bool prev;		/* in the source before the last begun */
	/* The counts there (an ending rendered there: render_at()). */
	uint64_t utf8_replaced, trailing, fields_cut, lost;
};

struct ehd_writer {
	const struct ehd__output_ops *ops;
	struct ehd__out o;
	struct ehd_enum *en;
	struct ehd_buf out;
	bool in_source;
	bool closed;
	uint64_t events_total;
	uint64_t bytes_total;
	int write_err;
	bool utf8_fix;		/* make the output well-formed UTF-8 */
	uint64_t utf8_replaced;
	uint64_t trailing;	/* ehd_writer_stats' */
	uint64_t fields_cut;
	uint64_t lost;

	/*
	 * A regular file that finds no room is cut back to the end of an
	 * event of the last source begun, or of the one before it, and
	 * ended there (cut_short()): its offset at the start (-1: not a
	 * regular file), the ends of the events since the last ENDS_KEPT
	 * before the buffer; the last source's end as ehd_writer_end()
	 * rendered it (src_ended), and the one before's (prev_end, empty
	 * when there is none); the ending, once rendered (ending: the
	 * source's end, then from close_at on the format's close). A
	 * format that can be taken back (o.marks) has its state at each end
	 * in snaps (ops->snap_size bytes each), and its ending is rendered
	 * again there instead.
	 */
	int64_t start;
	struct end_at *ends;
	uint8_t *snaps;
	size_t nends, ends_cap;
	struct ehd_buf src_end, prev_end;
	bool src_ended;
	struct ehd_buf ending;
	bool have_ending;
	bool ending_src;	/* it has the last source's end */
	size_t close_at;
	int no_room;		/* its errno: ended, no more events */

	uint64_t err_off;
	char err_msg[320];
	bool has_err;
};

static const struct {
	const char *name;
	unsigned int bits;
} meta_names[] = {
	{ "n", EHD_META_N },
	{ "time", EHD_META_TIME },
	{ "cpu", EHD_META_CPU },
	{ "pid", EHD_META_PID },
	{ "tid", EHD_META_TID },
	{ "id", EHD_META_ID },
	{ "version", EHD_META_VERSION },
	{ "level", EHD_META_LEVEL },
	{ "keyword", EHD_META_KEYWORD },
	{ "opcode", EHD_META_OPCODE },
	{ "tag", EHD_META_TAG },
	{ "activity", EHD_META_ACTIVITY },
	{ "relatedActivity", EHD_META_RELATED_ACTIVITY },
	{ "provider", EHD_META_PROVIDER },
	{ "event", EHD_META_EVENT },
	{ "options", EHD_META_OPTIONS },
	{ "flags", EHD_META_FLAGS },
	{ "common", EHD_META_COMMON },
	{ "default", EHD_META_DEFAULT },
	{ "comm", EHD_META_COMM },
	{ "stack", EHD_META_STACK },
	{ "all", EHD_META_ALL },
	{ "none", 0 },
};

EHD_API int ehd_meta_parse(const char *list, unsigned int *meta)
{
	unsigned int bits = 0;
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(meta_names) / sizeof(meta_names[0]); i++)
			if (strlen(meta_names[i].name) == n &&
			    !strncasecmp(p, meta_names[i].name, n))
				break;
		if (i == sizeof(meta_names) / sizeof(meta_names[0]))
			return -EINVAL;
		bits |= meta_names[i].bits;
		if (!p[n])
			break;
		p += n + 1;
	}
	*meta = bits;
	return 0;
}

static const struct ehd__output_ops *ops_of(int format)
{
	size_t i;

	for (i = 0; ehd__outputs[i]; i++)
		if (ehd__outputs[i]->format == format)
			return ehd__outputs[i];
	return NULL;
}

EHD_API int ehd_writer_format(const char *name, unsigned int *props)
{
	size_t i;

	for (i = 0; ehd__outputs[i]; i++) {
		if (strcmp(ehd__outputs[i]->name, name))
			continue;
		if (props)
			*props = ehd__outputs[i]->props;
		return ehd__outputs[i]->format;
	}
	return -EINVAL;
}

EHD_API const char *ehd_writer_format_name(int format)
{
	const struct ehd__output_ops *ops = ops_of(format);

	return ops ? ops->name : NULL;
}

EHD_API struct ehd_writer *ehd_writer_new(int format, int fd,
					  unsigned int flags,
					  unsigned int meta)
{
	const struct ehd__output_ops *ops = ops_of(format);
	struct ehd_writer *w;
	struct stat sb;

	if (!ops || fd < 0 ||
	    (flags & ~(EHD_WRITER_SPACE | EHD_WRITER_FIELD_TAGS |
		       EHD_WRITER_BOM | EHD_WRITER_UTF8_STRICT |
		       EHD_WRITER_RESERVE)) ||
	    (meta & ~EHD_META_ALL)) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->ops = ops;
	w->o.buf = &w->out;
	w->o.fd = fd;
	w->o.flags = flags;
	w->o.meta = meta;
	w->start = -1;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode))
		w->start = lseek(fd, 0, SEEK_CUR);
	w->o.marks = w->start >= 0 && ops->rewind;
	w->utf8_fix = (ops->caps & EHD__OUT_UTF8) ||
		      ((ops->caps & EHD__OUT_UTF8_OPT) &&
		       (flags & EHD_WRITER_UTF8_STRICT));
	w->en = ehd_enum_new();
	if (!w->en || (ops->create && ops->create(&w->o))) {
		ehd_writer_free(w);
		errno = ENOMEM;
		return NULL;
	}
	return w;
}

EHD_API void ehd_writer_free(struct ehd_writer *w)
{
	if (!w)
		return;
	if (w->o.state && w->ops->destroy)
		w->ops->destroy(&w->o);
	ehd_enum_free(w->en);
	ehd__buf_free(&w->out);
	ehd__buf_free(&w->src_end);
	ehd__buf_free(&w->prev_end);
	ehd__buf_free(&w->ending);
	free(w->ends);
	free(w->snaps);
	free(w);
}

/*
 * What the buffer holds from @at on, made well-formed UTF-8 where the
 * format promises it: each event and each piece of the frame as it is
 * added, so that the ends of events stay where they were put.
 */
static void fix_from(struct ehd_writer *w, struct ehd_buf *b, size_t at)
{
	if (w->utf8_fix && at < b->len)
		w->utf8_replaced += ehd__utf8_fix(b, at);
}

/* Add @src's bytes from @from on to @dst (none there: nothing). */
static void put_from(struct ehd_buf *dst, const struct ehd_buf *src,
		     size_t from)
{
	if (from < src->len)
		ehd__buf_put(dst, src->p + from, src->len - from);
}

/* The bytes of a format's state at end @i (o.marks only). */
static uint8_t *snap_of(const struct ehd_writer *w, size_t i)
{
	return w->snaps + i * w->ops->snap_size;
}

/* The output may end here, the current source's ending after it. */
static void mark_end(struct ehd_writer *w)
{
	struct end_at *e;
	uint8_t *sn;
	size_t cap;

	if (w->start < 0)
		return;
	if (w->nends == w->ends_cap) {
		cap = w->ends_cap ? 2 * w->ends_cap : 1024;
		e = realloc(w->ends, cap * sizeof(*e));
		if (!e)
			return;	/* (a cut finds fewer places: no harm) */
		w->ends = e;
		if (w->o.marks) {
			sn = realloc(w->snaps, cap * w->ops->snap_size);
			if (!sn)
				return;	/* (w->ends is larger: no harm) */
			w->snaps = sn;
		}
		w->ends_cap = cap;
	}
	w->ends[w->nends] = (struct end_at){
		w->bytes_total + w->out.len, w->events_total, false,
		w->utf8_replaced, w->trailing, w->fields_cut, w->lost,
	};
	if (w->o.marks)
		w->ops->mark(&w->o, snap_of(w, w->nends));
	w->nends++;
}

/*
 * Only the ends from @i on stay, in place of those before; a format taken
 * back there need not keep anything older.
 */
static void keep_ends(struct ehd_writer *w, size_t i)
{
	size_t n = w->nends - i;

	if (i && n) {
		memmove(w->ends, w->ends + i, n * sizeof(*w->ends));
		if (w->o.marks)
			memmove(w->snaps, snap_of(w, i),
				n * w->ops->snap_size);
	}
	w->nends = n;
	if (w->o.marks && n)
		w->ops->settle(&w->o, w->snaps);
}

/*
 * The rest of the ending, after its source's end in w->ending (w->o.buf
 * points there): the format's close, with the writer's counts; the
 * output then the format's buffer again.
 */
static void render_close(struct ehd_writer *w)
{
	struct ehd_writer_stats st;

	fix_from(w, &w->ending, 0);
	w->close_at = w->ending.len;
	if (w->ops->close) {
		ehd_writer_stats(w, &st);
		w->ops->close(&w->o, &st);
		fix_from(w, &w->ending, w->close_at);
	}
	w->o.buf = &w->out;
}

/*
 * The ending of the output as ehd_writer_close() would add it now, in
 * w->ending, once: the last source's end (rendered now, or as
 * ehd_writer_end() did), then the format's close, with the counts of all
 * the events so far. The format renders into w->o.buf: pointed there.
 */
static void render_ending(struct ehd_writer *w)
{
	if (w->have_ending)
		return;
	w->have_ending = true;
	w->o.buf = &w->ending;
	w->ending_src = w->in_source || w->src_ended;
	if (w->in_source && w->ops->end)
		w->ops->end(&w->o);
	else if (w->src_ended)
		put_from(&w->ending, &w->src_end, 0);
	render_close(w);
}

/* The writer's counts back as they were at end @e (the file cut there). */
static void counts_at(struct ehd_writer *w, const struct end_at *e)
{
	w->events_total = e->events;
	w->utf8_replaced = e->utf8_replaced;
	w->trailing = e->trailing;
	w->fields_cut = e->fields_cut;
	w->lost = e->lost;
}

/*
 * The ending at end @e of a format taken back there: its source's end,
 * then its close, with the counts there (also left as the writer's).
 */
static void render_at(struct ehd_writer *w, const struct end_at *e)
{
	counts_at(w, e);
	w->have_ending = true;
	w->ending.len = 0;
	w->o.buf = &w->ending;
	if (w->ops->end)
		w->ops->end(&w->o);
	render_close(w);
}

/*
 * cut_short() for a format that is taken back (o.marks): to each end of
 * an event, the last first, its ending rendered there, until one fits.
 */
static int cut_rewound(struct ehd_writer *w, int err, uint64_t reached)
{
	const struct end_at *e = NULL;
	size_t n;

	for (n = w->nends; n; n--) {
		e = &w->ends[n - 1];
		w->ops->rewind(&w->o, snap_of(w, n - 1));
		render_at(w, e);
		if (w->ending.err)
			return err;
		if (e->at + w->ending.len <= reached)
			break;
	}
	if (!n || ehd__cut_back(w->o.fd, (uint64_t)w->start + e->at) ||
	    (w->ending.len && ehd__write_full(w->o.fd, w->ending.p,
					      w->ending.len, NULL)))
		return err;
	w->bytes_total = e->at + w->ending.len;
	w->out.len = 0;
	w->nends = 0;
	w->no_room = -err;
	return -EFBIG;
}

/*
 * cut_short() - writing the buffer found no room (@err), @done bytes of
 * it written: end the file at the last end of an event after which its
 * ending (its source's end, then the format's close: render_ending())
 * fits in the bytes the file reached, the ending written there. The file
 * is then complete, with the events before that end; no more are taken
 * (-EFBIG).
 * Return: -EFBIG, or @err when it cannot be (not a regular file, no
 * such end in the last two sources, the cut or the ending failed).
 */
static int cut_short(struct ehd_writer *w, int err, size_t done)
{
	uint64_t reached = w->bytes_total + done, size = 0;
	size_t n, close, src = 0;
	const struct end_at *e;

	if (w->start < 0 || !w->nends)
		return err;
	if (w->o.marks)
		return cut_rewound(w, err, reached);
	render_ending(w);
	if (w->ending.err)
		return err;
	close = w->ending.len - w->close_at;
	for (n = w->nends; n; n--) {
		if (!w->ends[n - 1].prev && !w->ending_src)
			continue;	/* (its end not known) */
		src = w->ends[n - 1].prev ? w->prev_end.len : w->close_at;
		size = src + close;
		if (w->ends[n - 1].at + size <= reached)
			break;
	}
	if (!n)
		return err;
	e = &w->ends[n - 1];
	if (ehd__cut_back(w->o.fd, (uint64_t)w->start + e->at) ||
	    (src && ehd__write_full(w->o.fd, e->prev ? w->prev_end.p :
						       w->ending.p,
				    src, NULL)) ||
	    (close && ehd__write_full(w->o.fd, w->ending.p + w->close_at,
				      close, NULL)))
		return err;
	w->bytes_total = e->at + size;
	counts_at(w, e);
	w->out.len = 0;
	w->nends = 0;
	w->no_room = -err;
	return -EFBIG;
}

/* Write the buffer out (all of it when @all, else once it is large). */
static int flush(struct ehd_writer *w, bool all)
{
	size_t done = 0, keep;
	int err;

	if (w->out.err && !w->write_err)
		w->write_err = w->out.err;
	if (w->write_err)
		return w->write_err;
	if (w->no_room)
		return -EFBIG;
	if (!all && w->out.len < FLUSH_AT)
		return 0;
	err = ehd__write_full(w->o.fd, w->out.p, w->out.len, &done);
	if (ehd__no_room(err))
		err = cut_short(w, err, done);
	if (err == -EFBIG && w->no_room)
		return err;	/* (cut short: not an error of the output) */
	if (err)
		return w->write_err = err;
	w->bytes_total += w->out.len;
	w->out.len = 0;
	/* The last ends stay: an ending may not fit after the buffer's. */
	keep = w->nends < ENDS_KEPT ? w->nends : ENDS_KEPT;
	keep_ends(w, w->nends - keep);
	return 0;
}

EHD_API int ehd_writer_flush(struct ehd_writer *w)
{
	if (w->ops->flush)
		return w->ops->flush(&w->o);
	return flush(w, true);
}

/*
 * A source begins: the ends of events of the last one stay, marked as
 * the source before's, if its end was kept (or will be rendered again
 * there: o.marks); those before it go.
 */
static void prev_marks(struct ehd_writer *w)
{
	struct ehd_buf t;
	size_t i, first = w->nends;

	for (i = 0; i < w->nends; i++) {
		if (w->ends[i].prev)
			continue;
		if (first == w->nends)
			first = i;
		w->ends[i].prev = true;
	}
	if (!w->src_ended && !w->o.marks)
		first = w->nends;	/* (its end not known) */
	keep_ends(w, first);
	t = w->prev_end;
	w->prev_end = w->src_end;
	w->src_end = t;
	w->src_end.len = 0;
}

EHD_API int ehd_writer_begin(struct ehd_writer *w, const char *name)
{
	return ehd_writer_begin_trace(w, name, NULL);
}

EHD_API int ehd_writer_begin_trace(struct ehd_writer *w, const char *name,
				   const struct ehd_trace_info *info)
{
	size_t at = w->out.len;
	int err = 0;

	if (w->in_source || w->closed)
		return -EINVAL;
	if (w->no_room)
		return -EFBIG;
	w->in_source = true;
	w->o.source_events = 0;
	prev_marks(w);
	w->src_ended = false;
	if (w->ops->begin)
		err = w->ops->begin(&w->o, name, info);
	w->o.sources++;
	if (err || (w->ops->caps & EHD__OUT_OWN_IO))
		return err;
	fix_from(w, &w->out, at);
	/*
	 * A source of no events may end the file, after events of another:
	 * a file is not cut back to none (Chrome's ending would then follow
	 * the records cut with a comma).
	 */
	if (w->events_total)
		mark_end(w);
	return flush(w, false);
}

EHD_API int ehd_writer_end(struct ehd_writer *w)
{
	size_t at = w->out.len;
	int err = 0;

	if (!w->in_source)
		return -EINVAL;
	w->in_source = false;
	if (w->no_room)
		return 0;	/* (ended when it was cut short) */
	if (w->ops->end)
		err = w->ops->end(&w->o);
	if (err || (w->ops->caps & EHD__OUT_OWN_IO))
		return err;
	fix_from(w, &w->out, at);
	/*
	 * A cut back into the source writes its end again: kept (a format
	 * taken back renders it again instead).
	 */
	w->src_end.len = 0;
	if (w->start >= 0 && !w->o.marks)
		put_from(&w->src_end, &w->out, at);
	w->src_ended = !w->src_end.err;
	return flush(w, false);
}

/*
 * Render @ev, its fields in w->en (started); < 0: damaged, nothing added.
 * What its record holds that the output cannot show is counted.
 */
static int render(struct ehd_writer *w, const struct ehd_event *ev)
{
	int err = w->ops->event(&w->o, ev, w->en, NULL, NULL);

	if (err)
		return err;
	if (ehd__enum_cut(w->en))
		w->fields_cut++;
	if (ev->kind == EHD_EVENT_EVENTHEADER && !ehd__event_own_fields(ev) &&
	    ehd__enum_extra(w->en))
		w->trailing++;
	return 0;
}

static void set_error(struct ehd_writer *w, const struct ehd_event *ev,
		      int err, const char *reason, uint64_t where)
{
	w->has_err = true;
	w->err_off = ev->source_offset;
	if (ehd__event_own_fields(ev))	/* nettrace, Heph */
		snprintf(w->err_msg, sizeof(w->err_msg),
			 "event %.*s:%.*s: byte %llu of its payload: %s (written as bytes)",
			 (int)ev->provider_len, ev->provider,
			 (int)ev->name_len, ev->name, (unsigned long long)where,
			 reason ? reason : ehd_strerror(err));
	else
		snprintf(w->err_msg, sizeof(w->err_msg),
			 "tracepoint %.*s: byte %llu of its EventHeader data: %s",
			 (int)ev->tracepoint_len, ev->tracepoint,
			 (unsigned long long)where,
			 reason ? reason : ehd_strerror(err));
}

/* A format that writes on its own: it reports the damage it found. */
static int own_io_event(struct ehd_writer *w, const struct ehd_event *ev)
{
	const char *why = NULL;
	uint64_t where = 0;
	int err;

	err = w->ops->event(&w->o, ev, w->en, &why, &where);
	if (err < 0 && why)
		set_error(w, ev, err, why, where);
	else if (!err && ev->decode_error)
		set_error(w, ev, err = ev->decode_error, ev->decode_reason,
			  ev->decode_offset);
	return err;
}

static int buffered_event(struct ehd_writer *w, const struct ehd_event *ev)
{
	unsigned int fflags = (w->o.meta & EHD_META_COMMON) ?
			      EHD_FIELDS_COMMON : 0;
	size_t at = w->out.len;
	int damage = 0, err;
	uint64_t where = 0;

	w->events_total++;
	if (ev->decode_error) {
		damage = ev->decode_error;
		set_error(w, ev, damage, ev->decode_reason, ev->decode_offset);
	}
	err = ehd_event_fields(ev, w->en, fflags);
	if (!err)
		err = render(w, ev);
	if (err == -ENOMEM) {
		w->has_err = false;
		return -ENOMEM;
	}
	if (err < 0) {
		/* Damaged EventHeader data: show the record as it is. */
		struct ehd_event raw;

		damage = err;
		set_error(w, ev, err, ehd_enum_error(w->en, &where), where);
		ehd__event_as_record(ev, &raw);
		err = ehd_event_fields(&raw, w->en, fflags);
		if (!err)
			err = render(w, &raw);
		if (err < 0) {
			w->has_err = false;	/* out of memory */
			return err;
		}
	}
	fix_from(w, &w->out, at);
	mark_end(w);
	err = flush(w, false);
	if (err) {
		w->has_err = false;	/* the write failed: not a damage */
		return err;
	}
	return damage;
}

EHD_API int ehd_writer_event(struct ehd_writer *w, const struct ehd_event *ev)
{
	int err;

	if (w->no_room)
		return -EFBIG;	/* (cut short for want of room) */
	if (!w->in_source)
		return -EINVAL;
	w->has_err = false;
	if (w->ops->caps & EHD__OUT_OWN_IO)
		err = own_io_event(w, ev);
	else
		err = buffered_event(w, ev);
	w->o.source_events++;
	/*
	 * A failure that is not the event's (out of memory, a failed write):
	 * the output is lost, and ehd_writer_close() returns why.
	 */
	if (err < 0 && !w->has_err && err != -E2BIG && err != -EFBIG &&
	    !w->write_err)
		w->write_err = err;
	return err;
}

/*
 * Rows (eh-row.h) go straight to the format, as ehd_writer_event() would
 * have given it their events; the counts are made after the pass.
 */
bool ehd__writer_sink(struct ehd_writer *w, struct ehd__eh_sink *sink)
{
	if (!w || !w->ops->rows || !w->in_source || w->write_err)
		return false;
	sink->take = w->ops->rows;
	sink->o = &w->o;
	sink->taken = 0;
	sink->err = 0;
	return true;
}

void ehd__writer_sink_end(struct ehd_writer *w,
			  const struct ehd__eh_sink *sink)
{
	w->o.source_events += sink->taken;
	if (sink->taken)
		w->has_err = false;
	if (sink->err)
		w->write_err = sink->err;
}

EHD_API int ehd_writer_set_limit(struct ehd_writer *w, uint64_t bytes)
{
	if (!w->ops->set_limit)
		return -ENOTSUP;
	return w->ops->set_limit(&w->o, bytes);
}

EHD_API void ehd_writer_add_lost(struct ehd_writer *w, uint64_t n)
{
	w->lost += n;
	if (w->ops->add_lost)
		w->ops->add_lost(&w->o, n);
}

EHD_API int ehd_writer_close(struct ehd_writer *w)
{
	struct ehd_writer_stats st;
	int err;

	if (w->closed)
		return w->write_err ? w->write_err : -w->no_room;
	w->closed = true;
	if (w->ops->caps & EHD__OUT_OWN_IO) {
		if (w->in_source)
			ehd_writer_end(w);
		if (w->write_err)
			return w->write_err;
		ehd_writer_stats(w, &st);
		return w->write_err = w->ops->close(&w->o, &st);
	}
	if (!w->no_room && !w->write_err) {
		/*
		 * The counts may go in the output: all the events are in. The
		 * source's end is in the buffer already when it was ended.
		 */
		bool ended = !w->in_source;

		render_ending(w);
		w->in_source = false;
		put_from(&w->out, &w->ending, ended ? w->close_at : 0);
		if (w->ending.err && !w->out.err)
			w->out.err = w->ending.err;
		err = flush(w, true);
		if (err && err != -EFBIG)
			return err;
	}
	return w->write_err ? w->write_err : -w->no_room;
}

EHD_API void ehd_writer_stats(const struct ehd_writer *w,
			      struct ehd_writer_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	stats->events = w->events_total;
	if (w->ops->stats)
		w->ops->stats(&w->o, stats);
	if (w->ops->caps & EHD__OUT_OWN_IO)
		return;
	/* Those in the file (a format taken back there counts them). */
	if (w->no_room && !w->o.marks)
		stats->events = w->events_total;
	stats->bytes = w->bytes_total;
	if (w->utf8_fix)
		stats->utf8_replaced = w->utf8_replaced;
	stats->trailing = w->trailing;
	stats->fields_cut = w->fields_cut;
	stats->lost = w->lost;
	stats->no_room = w->no_room;
}

EHD_API const char *ehd_writer_error(const struct ehd_writer *w,
				     uint64_t *offset)
{
	if (!w->has_err)
		return NULL;
	if (offset)
		*offset = w->err_off;
	return w->err_msg;
}
