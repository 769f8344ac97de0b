// SPDX-License-Identifier: MIT
/*
 * heph-writer.c - events written as Heph trace packets (the format's
 * numbers are in heph-format.h)
 *
 * Packets are appended to the writer's output buffer, which writer.c
 * writes out. The mapping (docs/heph.md):
 *  - the first event decides the epoch: with a UTC time, an epoch
 *    metadata packet is written first, the epoch being that time (for an
 *    event read from a Heph trace, that trace's own epoch); times are
 *    then ns after it. Without UTC time there is no epoch packet and
 *    times are those of the source's clock;
 *  - an activity start (opcode 1 with an activity id) is held until the
 *    stop (opcode 2) of the same id comes: the two become one event
 *    packet from the start's time to the stop's, the start's fields then
 *    the stop's (named "stop.<name>"). Activities not stopped when the
 *    source ends are written then with end = start, and counted;
 *  - every other event is a packet with start = end = its time;
 *  - stream id = pid, substream id = tid (0 when the source has none);
 *    description "provider:event" (just "event" without a provider);
 *  - fields become attributes: unsigned integers (and hex) u64, signed
 *    ones (and pids) i64, floats f64, text strings string, arrays of
 *    those arrays of them; anything else a string: its JSON rendering
 *    (a JSON string's text without quotes);
 *  - an event without time is written at time 0 and counted; one before
 *    the epoch at time 0, counted as reordered;
 *  - events read from a Heph trace are copied as they are, with their
 *    times moved to this trace's epoch.
 *
 * An event's items are copied out of the enumerator first, so that an
 * array or struct can be looked at whole before it is written; a damaged
 * event is then refused before anything is written or held. Activity
 * starts wait, with their packet built, in slots found by a hash of their
 * activity id; stale entries of that table (slots since freed) are
 * dropped by rebuilding it once they outnumber the open activities.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ehdecode/trace.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "core/ehd-table.h"
#include "formats/heph/heph-format.h"
#include "formats/output.h"
#include "core/utf8.h"
#include "formats/json/json-event.h"
#include "model/json-values.h"

/* What a field becomes: an attribute type, or K_OTHER (its rendering). */
enum kind {
	K_OTHER = 0,
	K_U64 = EHD__HEPH_U64,
	K_I64 = EHD__HEPH_I64,
	K_F64 = EHD__HEPH_F64,
	K_STRING = EHD__HEPH_STRING,
};

/* An item of the event being written. */
struct ent {
	int state;
	struct ehd_item it;
};

/* An activity started and not stopped yet: its packet so far. */
struct open_act {
	uint8_t id[16];
	bool used;
	uint64_t order;		/* of its start, for the end of a source */
	struct ehd_buf pkt;
};

/* A stream: how many event packets were written on it. */
struct stream {
	uint32_t id;
	uint32_t count;
};

/*
 * A change to an activity to take back (o->marks): what heph_rewind()
 * undoes. (The packets counted on each stream have a log of their own:
 * one for each packet, they are the most.)
 */
enum undo_kind {
	UNDO_OPEN,	/* activity slot @at taken */
	UNDO_CLOSE,	/* activity slot @at, as below, ended */
};

struct undo {
	enum undo_kind kind;
	uint32_t at;
	uint8_t id[16];
	uint64_t order;
	struct ehd_buf pkt;	/* its packet as it was while open */
};

/*
 * What heph_rewind() needs to take the writer back to a mark (the epoch
 * is decided by the first event, before any mark).
 */
struct snap {
	uint64_t undo;		/* the undo log's length then (from its start) */
	uint64_t counted;	/* the stream log's */
	uint64_t order;
	size_t nacts;
	struct ehd_writer_stats st;
};

struct ehd__hephw {
	bool decided;		/* the first event came: epoch or none */
	bool has_epoch;
	uint64_t epoch;		/* ns since 1970 UTC */

	struct ent *ents;
	size_t nents, ents_cap;
	struct ehd_buf pkt;	/* the packet being built */
	struct ehd_buf text;	/* a value rendered as text, or JSON */
	struct ehd_buf name;	/* a description or attribute name */

	struct open_act *acts;
	uint32_t *free_slots;
	size_t nacts, acts_cap, nfree, nopen;
	struct ehd_table by_id;		/* hash of the activity id -> slot */
	size_t id_entries;
	uint64_t order;

	struct stream *streams;
	size_t nstreams, streams_cap;
	struct ehd_table by_stream;	/* stream id -> index */

	struct ehd_writer_stats st;
	struct ehd_buf fixed;	/* a string made well-formed */

	/*
	 * With o->marks, the changes since the oldest mark (undo_base), and
	 * the stream of each packet since then (counted_base).
	 */
	bool journal;
	struct undo *undo;
	size_t nundo, undo_cap;
	uint64_t undo_base;
	uint32_t *counted;
	size_t ncounted, counted_cap;
	uint64_t counted_base;
};

static void hephw_free(struct ehd__hephw *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nundo; i++)
		ehd__buf_free(&w->undo[i].pkt);
	free(w->undo);
	free(w->counted);
	for (i = 0; i < w->acts_cap; i++)
		ehd__buf_free(&w->acts[i].pkt);
	free(w->acts);
	free(w->free_slots);
	free(w->streams);
	free(w->ents);
	ehd__table_free(&w->by_id);
	ehd__table_free(&w->by_stream);
	ehd__buf_free(&w->pkt);
	ehd__buf_free(&w->text);
	ehd__buf_free(&w->fixed);
	ehd__buf_free(&w->name);
	free(w);
}

static uint64_t be(const uint8_t *p, unsigned int size)
{
	return ehd__load_uint(p, size, 1);
}

/* ---- values ---- */

static bool int_size(unsigned int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* The kind of a value item; @begin: of an ARRAY_BEGIN (its elements). */
static int kind_of(const struct ehd_item *it, bool begin)
{
	unsigned int size = begin ? it->element_size : it->value_size;

	switch (it->encoding) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
		if (!int_size(size) || (!begin && !it->value))
			return K_OTHER;
		switch (it->format) {
		case EH_FMT_DEFAULT:
		case EH_FMT_UNSIGNED_INT:
		case EH_FMT_HEX_INT:
			return K_U64;
		case EH_FMT_SIGNED_INT:
			return K_I64;
		case EH_FMT_PID:
			return size == 4 ? K_I64 : K_OTHER;
		case EH_FMT_FLOAT:
			return size == 4 || size == 8 ? K_F64 : K_OTHER;
		default:
			return K_OTHER;
		}
	case EH_ENC_ZSTRING_CHAR8:
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_ZSTRING_CHAR32:
	case EH_ENC_STRING_LENGTH16_CHAR8:
	case EH_ENC_STRING_LENGTH16_CHAR16:
	case EH_ENC_STRING_LENGTH16_CHAR32:
		switch (it->format) {
		case EH_FMT_DEFAULT:
		case EH_FMT_STRING8:
		case EH_FMT_STRING_UTF:
		case EH_FMT_STRING_UTF_BOM:
		case EH_FMT_STRING_XML:
		case EH_FMT_STRING_JSON:
			return K_STRING;
		default:
			return K_OTHER;
		}
	default:
		return K_OTHER;
	}
}

/* A number item of kind @kind as the attribute's 8 bytes. */
static void put_number(struct ehd_buf *b, const struct ehd_item *it, int kind)
{
	unsigned int size = it->value_size, shift = 64 - 8 * size;
	uint64_t v = ehd__load_uint(it->value, size,
				    ehd__host_big() ^ !!it->swap);

	if (kind == K_I64)
		v = (uint64_t)((int64_t)(v << shift) >> shift);
	if (kind == K_F64 && size == 4) {
		uint32_t bits = (uint32_t)v;
		double d;
		float f;

		memcpy(&f, &bits, 4);
		d = f;
		memcpy(&v, &d, 8);
	}
	ehd__heph_put_be(b, v, 8);
}

/* A Heph string: cut to 65,535 bytes, not inside a UTF-8 sequence. */
static void put_string(struct ehd__hephw *w, struct ehd_buf *b, const char *s,
		       size_t n)
{
	if (ehd__utf8_well_formed(s, n) < n) {
		/* Heph strings are UTF-8: what is not becomes U+FFFD. */
		ehd__buf_reset(&w->fixed);
		w->st.utf8_replaced += ehd__utf8_put(&w->fixed, s, n);
		s = ehd__buf_cstr(&w->fixed);
		n = w->fixed.len;
	}
	if (n > EHD__HEPH_LEN_MAX) {
		n = EHD__HEPH_LEN_MAX;
		while (n && ((uint8_t)s[n] & 0xc0) == 0x80)
			n--;
		w->st.lossy++;
	}
	ehd__heph_put_be(b, n, 2);
	ehd__buf_put(b, s, n);
}

/* ---- attributes ---- */

/* The name and type of an attribute. */
static void attr_head(struct ehd__hephw *w, struct ehd_buf *b,
		      const char *prefix, const char *name, uint8_t type)
{
	ehd__buf_reset(&w->name);
	ehd__buf_puts(&w->name, prefix);
	ehd__buf_puts(&w->name, name ? name : "");
	put_string(w, b, ehd__buf_cstr(&w->name), w->name.len);
	ehd__buf_putc(b, (char)type);
}

/* The index of the END that closes the BEGIN at @i (n - 1 if none). */
static size_t match(const struct ent *e, size_t i, size_t n)
{
	int depth = 0;

	for (; i < n; i++) {
		if (e[i].state == EHD_STATE_ARRAY_BEGIN ||
		    e[i].state == EHD_STATE_STRUCT_BEGIN)
			depth++;
		else if ((e[i].state == EHD_STATE_ARRAY_END ||
			  e[i].state == EHD_STATE_STRUCT_END) && --depth == 0)
			return i;
	}
	return n - 1;
}

/* Items @e[0..n) (a value, or a struct or array whole) as JSON. */
static void json_of(struct ehd_buf *b, const struct ent *e, size_t n)
{
	enum { DEPTH = 2 * EHD_STRUCT_DEPTH_MAX + 4 };
	bool first[DEPTH], in_array[DEPTH];
	size_t i, d = 0;

	first[0] = in_array[0] = true;		/* the value itself: no key */
	for (i = 0; i < n; i++) {
		const struct ehd_item *it = &e[i].it;
		int st = e[i].state;

		if (st == EHD_STATE_ARRAY_END || st == EHD_STATE_STRUCT_END) {
			ehd__buf_putc(b, st == EHD_STATE_ARRAY_END ? ']' : '}');
			d -= d > 0;
			continue;
		}
		if (!first[d])
			ehd__buf_putc(b, ',');
		first[d] = false;
		if (!in_array[d]) {
			const char *name = it->name ? it->name : "";

			ehd__json_key(b, name, strlen(name), 0, false);
		}
		if (st == EHD_STATE_VALUE) {
			ehd__json_item_value(b, it);
			continue;
		}
		ehd__buf_putc(b, st == EHD_STATE_ARRAY_BEGIN ? '[' : '{');
		d += d + 1 < DEPTH;
		first[d] = true;
		in_array[d] = st == EHD_STATE_ARRAY_BEGIN;
	}
}

/*
 * The items @e[0..n) as one string value: a value as the text JSON would
 * quote (no quotes, no escapes), a struct or array as its JSON.
 */
static void put_rendered(struct ehd__hephw *w, struct ehd_buf *b,
			 const struct ent *e, size_t n)
{
	ehd__buf_reset(&w->text);
	if (n == 1 && e[0].state == EHD_STATE_VALUE)
		ehd__item_value(&w->text, &e[0].it, 0);
	else
		json_of(&w->text, e, n);
	if (w->text.err)
		b->err = -ENOMEM;
	put_string(w, b, ehd__buf_cstr(&w->text), w->text.len);
}

/* An array whose elements are all of one kind; false if it is not. */
static bool typed_array(struct ehd__hephw *w, struct ehd_buf *b,
			const char *prefix, const struct ent *e, size_t n)
{
	size_t count = n - 2, i;
	int kind;

	if (n < 2 || e[n - 1].state != EHD_STATE_ARRAY_END)
		return false;
	kind = count ? kind_of(&e[1].it, false) : kind_of(&e[0].it, true);
	if (kind == K_OTHER)
		return false;
	for (i = 1; i + 1 < n; i++)
		if (e[i].state != EHD_STATE_VALUE ||
		    kind_of(&e[i].it, false) != kind)
			return false;
	if (count > EHD__HEPH_LEN_MAX) {
		count = EHD__HEPH_LEN_MAX;
		w->st.lossy++;
	}
	attr_head(w, b, prefix, e[0].it.name,
		  (uint8_t)(kind | EHD__HEPH_ARRAY));
	ehd__heph_put_be(b, count, 2);
	for (i = 1; i <= count; i++) {
		if (kind == K_STRING)
			put_rendered(w, b, e + i, 1);
		else
			put_number(b, &e[i].it, kind);
	}
	return true;
}

/* The items of the event (w->ents) as attributes named @prefix + name. */
static void attributes(struct ehd__hephw *w, struct ehd_buf *b,
		       const char *prefix)
{
	const struct ent *e = w->ents;
	size_t n = w->nents, i = 0, j;
	int kind;

	while (i < n) {
		switch (e[i].state) {
		case EHD_STATE_VALUE:
			kind = kind_of(&e[i].it, false);
			attr_head(w, b, prefix, e[i].it.name,
				  kind == K_OTHER ? K_STRING : (uint8_t)kind);
			if (kind == K_OTHER || kind == K_STRING)
				put_rendered(w, b, e + i, 1);
			else
				put_number(b, &e[i].it, kind);
			i++;
			break;
		case EHD_STATE_ARRAY_BEGIN:
		case EHD_STATE_STRUCT_BEGIN:
			j = match(e, i, n);
			if (e[i].state == EHD_STATE_STRUCT_BEGIN ||
			    !typed_array(w, b, prefix, e + i, j - i + 1)) {
				attr_head(w, b, prefix, e[i].it.name, K_STRING);
				put_rendered(w, b, e + i, j - i + 1);
			}
			i = j + 1;
			break;
		default:
			i++;
			break;
		}
	}
}

/* Copy the items @en is started on into w->ents; < 0: damaged. */
static int collect(struct ehd__hephw *w, struct ehd_enum *en)
{
	int st;

	w->nents = 0;
	while ((st = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST) {
		const struct ehd_item *it = ehd_enum_item(en);

		if (!it)
			continue;
		if (w->nents == w->ents_cap) {
			size_t cap = w->ents_cap ? 2 * w->ents_cap : 64;
			struct ent *e = realloc(w->ents, cap * sizeof(*e));

			if (!e)
				return -ENOMEM;
			w->ents = e;
			w->ents_cap = cap;
		}
		w->ents[w->nents].state = st;
		w->ents[w->nents].it = *it;
		w->nents++;
	}
	return st < 0 ? st : 0;
}

/* ---- packets ---- */

/*
 * The first event decides the epoch: its UTC time (for an event of a
 * Heph trace, that trace's epoch), written first as a metadata packet.
 */
static void decide_epoch(struct ehd__hephw *w, const struct ehd_event *ev,
			 struct ehd_buf *out)
{
	const unsigned int utc = EHD_CTX_TIME | EHD_CTX_TIME_UTC;
	const uint8_t *p = ev->data;

	if (w->decided)
		return;
	w->decided = true;
	if ((ev->context & utc) != utc)
		return;
	w->epoch = ev->time;
	if (ev->kind == EHD_EVENT_HEPH && ev->data &&
	    ev->size >= EHD__HEPH_EVENT_HEAD)
		w->epoch -= be(p + EHD__HEPH_AT_START, 8);
	w->has_epoch = true;
	ehd__heph_put_be(out, EHD__HEPH_META_MAGIC, 4);
	ehd__heph_put_be(out, EHD__HEPH_EPOCH_SIZE, 4);
	ehd__heph_put_be(out, EHD__HEPH_EPOCH_LEN, 2);
	ehd__buf_put(out, EHD__HEPH_EPOCH, EHD__HEPH_EPOCH_LEN);
	ehd__heph_put_be(out, w->epoch, 8);
}

/* The time of @ev in the trace: ns after the epoch (or the source's). */
static uint64_t trace_time(struct ehd__hephw *w, const struct ehd_event *ev)
{
	if (!(ev->context & EHD_CTX_TIME)) {
		w->st.untimed++;
		return 0;
	}
	if (!w->has_epoch || !(ev->context & EHD_CTX_TIME_UTC))
		return ev->time;
	if (ev->time < w->epoch) {
		w->st.reordered++;
		return 0;
	}
	return ev->time - w->epoch;
}

/* An event packet's head, both times @t, counter 0, then its description. */
static void packet_begin(struct ehd__hephw *w, struct ehd_buf *b,
			 const struct ehd_event *ev, uint64_t t)
{
	bool ids = ev->context & EHD_CTX_PID;

	ehd__heph_put_be(b, EHD__HEPH_EVENT_MAGIC, 4);
	ehd__heph_put_be(b, 0, 4);
	ehd__heph_put_be(b, ids ? ev->pid : 0, 4);
	ehd__heph_put_be(b, 0, 4);
	ehd__heph_put_be(b, ids ? ev->tid : 0, 8);
	ehd__heph_put_be(b, t, 8);
	ehd__heph_put_be(b, t, 8);
	ehd__buf_reset(&w->name);
	if (ev->provider_len) {
		ehd__buf_put(&w->name, ev->provider, ev->provider_len);
		ehd__buf_putc(&w->name, ':');
	}
	ehd__buf_put(&w->name, ev->name, ev->name_len);
	put_string(w, b, ehd__buf_cstr(&w->name), w->name.len);
	if (w->name.err)
		b->err = -ENOMEM;
}

/* ---- taking back (o->marks) ---- */

/* A change of @kind at @at in the undo log (none without o->marks). */
static struct undo *log_undo(struct ehd__hephw *w, enum undo_kind kind,
			     size_t at)
{
	struct undo *u;

	if (!w->journal)
		return NULL;
	if (ehd__grow(&w->undo, &w->undo_cap, w->nundo + 1, sizeof(*u)))
		return NULL;
	u = &w->undo[w->nundo++];
	memset(u, 0, sizeof(*u));
	u->kind = kind;
	u->at = (uint32_t)at;
	return u;
}

/* Activity @a, about to end, as it is now: 0 or -ENOMEM. */
static int keep_open(struct ehd__hephw *w, const struct open_act *a)
{
	struct undo *u = log_undo(w, UNDO_CLOSE, (size_t)(a - w->acts));

	if (!w->journal)
		return 0;
	if (!u)
		return -ENOMEM;
	memcpy(u->id, a->id, 16);
	u->order = a->order;
	ehd__buf_put(&u->pkt, a->pkt.p, a->pkt.len);
	return u->pkt.err;
}

/* A packet counted on stream @i, in the stream log: 0 or -ENOMEM. */
static int log_counted(struct ehd__hephw *w, size_t i)
{
	if (!w->journal)
		return 0;
	if (ehd__grow(&w->counted, &w->counted_cap, w->ncounted + 1,
		      sizeof(*w->counted)))
		return -ENOMEM;
	w->counted[w->ncounted++] = (uint32_t)i;
	return 0;
}

/* The next counter value of stream @id. */
static uint32_t stream_count(struct ehd__hephw *w, uint32_t id,
			     struct ehd_buf *out)
{
	size_t pos = 0;
	uint32_t i;

	while (ehd__table_next(&w->by_stream, id, &pos, &i))
		if (w->streams[i].id == id) {
			if (log_counted(w, i))
				out->err = -ENOMEM;
			return w->streams[i].count++;
		}
	if (w->nstreams == w->streams_cap) {
		size_t cap = w->streams_cap ? 2 * w->streams_cap : 16;
		struct stream *s = realloc(w->streams, cap * sizeof(*s));

		if (!s) {
			out->err = -ENOMEM;
			return 0;
		}
		w->streams = s;
		w->streams_cap = cap;
	}
	if (log_counted(w, w->nstreams) ||
	    ehd__table_add(&w->by_stream, id, (uint32_t)w->nstreams)) {
		out->err = -ENOMEM;
		return 0;
	}
	w->streams[w->nstreams].id = id;
	w->streams[w->nstreams].count = 1;
	w->nstreams++;
	return 0;
}

/* Append the finished packet @b to @out, with its size and counter. */
static void emit(struct ehd__hephw *w, struct ehd_buf *out,
		 const struct ehd_buf *b)
{
	const uint8_t *p = (const uint8_t *)b->p;
	size_t at = out->len;
	uint32_t stream;

	if (b->err) {
		out->err = b->err;
		return;
	}
	if (b->len > UINT32_MAX) {
		w->st.skipped++;
		return;
	}
	stream = (uint32_t)be(p + EHD__HEPH_AT_STREAM, 4);
	ehd__buf_put(out, p, b->len);
	ehd__heph_patch_be(out, at + 4, b->len, 4);
	ehd__heph_patch_be(out, at + EHD__HEPH_AT_COUNTER,
			   stream_count(w, stream, out), 4);
	w->st.events++;
}

/* An event of a Heph trace: its packet, its times moved to our epoch. */
static int copy_heph(struct ehd__hephw *w, const struct ehd_event *ev,
		     struct ehd_buf *out)
{
	const uint8_t *p = ev->data;
	uint64_t t, span;
	size_t at;

	decide_epoch(w, ev, out);
	t = trace_time(w, ev);
	span = be(p + EHD__HEPH_AT_END, 8) - be(p + EHD__HEPH_AT_START, 8);
	at = out->len;
	ehd__buf_put(out, p, ev->size);
	ehd__heph_patch_be(out, at + EHD__HEPH_AT_START, t, 8);
	ehd__heph_patch_be(out, at + EHD__HEPH_AT_END, t + span, 8);
	w->st.events++;
	return out->err;
}

/* ---- activities ---- */

static struct open_act *find_open(struct ehd__hephw *w, const uint8_t *id)
{
	uint64_t key = ehd__hash_bytes(id, 16, 0);
	size_t pos = 0;
	uint32_t i;

	while (ehd__table_next(&w->by_id, key, &pos, &i))
		if (i < w->nacts && w->acts[i].used &&
		    !memcmp(w->acts[i].id, id, 16))
			return &w->acts[i];
	return NULL;
}

/* Drop the table's entries of freed slots. */
static int rebuild_ids(struct ehd__hephw *w)
{
	size_t i;

	ehd__table_clear(&w->by_id);
	w->id_entries = 0;
	for (i = 0; i < w->nacts; i++) {
		if (!w->acts[i].used)
			continue;
		if (ehd__table_add(&w->by_id, ehd__hash_bytes(w->acts[i].id,
							      16, 0),
				   (uint32_t)i))
			return -ENOMEM;
		w->id_entries++;
	}
	return 0;
}

static struct open_act *new_open(struct ehd__hephw *w, const uint8_t *id)
{
	struct open_act *a;
	size_t slot;

	if (w->id_entries > 2 * w->nopen + 64 && rebuild_ids(w))
		return NULL;
	if (w->nfree) {
		slot = w->free_slots[--w->nfree];
	} else {
		if (w->nacts == w->acts_cap) {
			size_t cap = w->acts_cap ? 2 * w->acts_cap : 16;
			uint32_t *f;

			if (cap > UINT32_MAX)
				return NULL;
			a = realloc(w->acts, cap * sizeof(*a));
			if (!a)
				return NULL;
			memset(a + w->acts_cap, 0,
			       (cap - w->acts_cap) * sizeof(*a));
			w->acts = a;
			f = realloc(w->free_slots, cap * sizeof(*f));
			if (!f)
				return NULL;
			w->free_slots = f;
			w->acts_cap = cap;
		}
		slot = w->nacts++;
	}
	if (ehd__table_add(&w->by_id, ehd__hash_bytes(id, 16, 0),
			   (uint32_t)slot)) {
		w->free_slots[w->nfree++] = (uint32_t)slot;
		return NULL;
	}
	w->id_entries++;
	if (w->journal && !log_undo(w, UNDO_OPEN, slot))
		return NULL;	/* (out of memory: the writer fails) */
	a = &w->acts[slot];
	memcpy(a->id, id, 16);
	a->used = true;
	a->order = w->order++;
	ehd__buf_reset(&a->pkt);
	w->nopen++;
	return a;
}

/* Write the packet of @a (its end time set) and free its slot. */
static void close_open(struct ehd__hephw *w, struct open_act *a,
		       struct ehd_buf *out)
{
	emit(w, out, &a->pkt);
	a->used = false;
	w->free_slots[w->nfree++] = (uint32_t)(a - w->acts);
	w->nopen--;
}

static int hold(struct ehd__hephw *w, const struct ehd_event *ev, uint64_t t,
		struct ehd_buf *out)
{
	struct open_act *a = find_open(w, ev->activity_id);

	if (a) {
		/* Started again before it stopped: the first one ends now. */
		if (keep_open(w, a))
			return -ENOMEM;
		w->st.unfinished++;
		close_open(w, a, out);
	}
	a = new_open(w, ev->activity_id);
	if (!a)
		return -ENOMEM;
	packet_begin(w, &a->pkt, ev, t);
	attributes(w, &a->pkt, "");
	return a->pkt.err ? a->pkt.err : out->err;
}

static int cmp_order(const void *x, const void *y)
{
	const struct open_act *a = *(struct open_act *const *)x;
	const struct open_act *b = *(struct open_act *const *)y;

	return a->order < b->order ? -1 : a->order > b->order;
}

/* The end of a source: the activities still open go out, end = start. */
static int hephw_end(struct ehd__hephw *w, struct ehd_buf *out)
{
	struct open_act **v;
	size_t i, n = 0;

	if (!w->nopen)
		return out->err;
	v = malloc(w->nopen * sizeof(*v));
	for (i = 0; i < w->nacts; i++)
		if (w->acts[i].used && v)
			v[n++] = &w->acts[i];
	if (v)
		qsort(v, n, sizeof(*v), cmp_order);
	for (i = 0; i < w->nacts; i++) {
		struct open_act *a = v ? (i < n ? v[i] : NULL) : &w->acts[i];

		if (!a || !a->used)
			continue;
		if (keep_open(w, a)) {
			out->err = -ENOMEM;
			break;
		}
		w->st.unfinished++;
		close_open(w, a, out);
	}
	free(v);
	ehd__table_clear(&w->by_id);
	w->id_entries = 0;
	w->nacts = w->nfree = 0;
	return out->err;
}

/* ---- events ---- */

/*
 * One event whose fields @en is started on. @out gets the packets that
 * are complete. Return: 0; the enumerator's negative errno when the
 * fields are damaged (nothing is added or held); -ENOMEM.
 */
static int hephw_event(struct ehd__hephw *w, const struct ehd_event *ev,
		       struct ehd_enum *en, struct ehd_buf *out)
{
	struct open_act *a;
	uint64_t t;
	int err;

	if (ev->kind == EHD_EVENT_HEPH && ev->data &&
	    ev->size >= EHD__HEPH_EVENT_HEAD && ev->size <= UINT32_MAX)
		return copy_heph(w, ev, out);
	err = collect(w, en);
	if (err)
		return err;
	decide_epoch(w, ev, out);
	t = trace_time(w, ev);
	if (ev->activity_id && ev->opcode == EH_OPCODE_ACTIVITY_STOP &&
	    (a = find_open(w, ev->activity_id))) {
		if (keep_open(w, a))
			return -ENOMEM;
		attributes(w, &a->pkt, "stop.");
		ehd__heph_patch_be(&a->pkt, EHD__HEPH_AT_END, t, 8);
		close_open(w, a, out);
		return out->err;
	}
	if (ev->activity_id && ev->opcode == EH_OPCODE_ACTIVITY_START)
		return hold(w, ev, t, out);
	/* A stop of nothing open, a start or stop without an id: instant. */
	if (ev->opcode == EH_OPCODE_ACTIVITY_START ||
	    ev->opcode == EH_OPCODE_ACTIVITY_STOP)
		w->st.unmatched++;
	ehd__buf_reset(&w->pkt);
	packet_begin(w, &w->pkt, ev, t);
	attributes(w, &w->pkt, "");
	emit(w, out, &w->pkt);
	return out->err;
}

static int heph_create(struct ehd__out *o)
{
	struct ehd__hephw *w = calloc(1, sizeof(*w));

	o->state = w;
	if (!w)
		return -ENOMEM;
	w->journal = o->marks;
	return 0;
}

static void heph_destroy(struct ehd__out *o)
{
	hephw_free(o->state);
}

static int heph_event(struct ehd__out *o, const struct ehd_event *ev,
		      struct ehd_enum *en, const char **why, uint64_t *where)
{
	return hephw_event(o->state, ev, en, o->buf);
}

static int heph_end(struct ehd__out *o)
{
	return hephw_end(o->state, o->buf);
}

/* Counts: events (packets), reordered, lossy, skipped, untimed, unfinished. */
static void heph_stats(const struct ehd__out *o, struct ehd_writer_stats *st)
{
	const struct ehd__hephw *w = o->state;

	*st = w->st;
}

/* ---- taken back to a mark (ehd__output_ops.mark) ---- */

static void heph_mark(struct ehd__out *o, void *snap)
{
	const struct ehd__hephw *w = o->state;
	struct snap *sn = snap;

	sn->undo = w->undo_base + w->nundo;
	sn->counted = w->counted_base + w->ncounted;
	sn->order = w->order;
	sn->nacts = w->nacts;
	sn->st = w->st;
}

/*
 * The log undone to the mark: the streams' counts, the activities open
 * there as they were (their packets as they were open), the counts. The
 * free slots and the ids' table are made again from the slots used.
 */
static void heph_rewind(struct ehd__out *o, const void *snap)
{
	struct ehd__hephw *w = o->state;
	const struct snap *sn = snap;
	struct open_act *a;
	struct undo *u;
	size_t i;

	while (w->ncounted && w->counted_base + w->ncounted > sn->counted)
		w->streams[w->counted[--w->ncounted]].count--;
	while (w->nundo && w->undo_base + w->nundo > sn->undo) {
		u = &w->undo[--w->nundo];
		switch (u->kind) {
		case UNDO_OPEN:
			w->acts[u->at].used = false;
			break;
		case UNDO_CLOSE:
			a = &w->acts[u->at];
			a->used = true;
			memcpy(a->id, u->id, 16);
			a->order = u->order;
			ehd__buf_reset(&a->pkt);
			ehd__buf_put(&a->pkt, u->pkt.p, u->pkt.len);
			break;
		}
		ehd__buf_free(&u->pkt);
	}
	w->order = sn->order;
	w->nacts = sn->nacts;
	w->st = sn->st;
	w->nfree = w->nopen = 0;
	for (i = 0; i < w->nacts; i++) {
		if (w->acts[i].used)
			w->nopen++;
		else
			w->free_slots[w->nfree++] = (uint32_t)i;
	}
	/* (only the ending follows, which needs no ids: a failure is no harm) */
	rebuild_ids(w);
}

/* The logs before the oldest mark go (it is at or after their starts). */
static void heph_settle(struct ehd__out *o, const void *snap)
{
	struct ehd__hephw *w = o->state;
	const struct snap *sn = snap;
	size_t k, n = (size_t)(sn->undo - w->undo_base);

	if (n) {	/* (a log may be unallocated) */
		for (k = 0; k < n; k++)
			ehd__buf_free(&w->undo[k].pkt);
		memmove(w->undo, w->undo + n,
			(w->nundo - n) * sizeof(*w->undo));
		w->nundo -= n;
		w->undo_base += n;
	}
	n = (size_t)(sn->counted - w->counted_base);
	if (n) {
		memmove(w->counted, w->counted + n,
			(w->ncounted - n) * sizeof(*w->counted));
		w->ncounted -= n;
		w->counted_base += n;
	}
}

const struct ehd__output_ops ehd__heph_output = {
	.name = "heph", .format = EHD_OUT_HEPH, .props = EHD_FORMAT_BINARY,
	.create = heph_create, .destroy = heph_destroy, .event = heph_event,
	.end = heph_end, .stats = heph_stats,
	.snap_size = sizeof(struct snap), .mark = heph_mark,
	.rewind = heph_rewind, .settle = heph_settle,
};
