// SPDX-License-Identifier: MIT
/*
 * heph-read.c - Heph trace packets read into struct ehd_event, their
 * attributes given as enumerator items
 *
 * A packet is read whole and checked before its event is given out; its
 * attributes are found once (struct attr) and turned into items only when
 * ehd_event_fields() asks for them. An event packet becomes an event of
 * kind EHD_EVENT_HEPH:
 *  - provider and name from the description, split at its first ':'
 *    (no ':': an empty provider and the whole description as the name);
 *  - pid = stream id, tid = the low 32 bits of the substream id;
 *  - time = start time; with an epoch (a metadata packet before it) ns
 *    since 1970 UTC, else ns after the trace's unknown zero;
 *  - data = the packet's bytes;
 *  - fields: the attributes (u64, i64, f64 and strings as VALUE64 and
 *    STRING_LENGTH16_CHAR8 items, arrays as variable arrays of them), then
 *    "duration_ns" (end - start, signed) and, when it does not fit in the
 *    tid, "substream_id".
 * Metadata packets are applied where they are: an epoch counts for the
 * event packets after it. Options other than "epoch" are skipped.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ehdecode/event.h>
#include <ehdecode/reader.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "core/err.h"
#include "core/input.h"
#include "model/enumerator-int.h"
#include "model/event-int.h"
#include "formats/heph/heph-format.h"
#include "formats/heph/heph-read.h"
#include "formats/input.h"
#include "core/utf8.h"

/* Largest packet read (Heph writes packets of a few hundred bytes). */
#define PACKET_MAX (16u << 20)
/* Most items the fields of one event may give. */
#define ITEMS_MAX (1u << 20)
/* Most bytes of an attribute name quoted in a message. */
#define NAME_SHOWN 40

/* One attribute of the current event packet. */
struct attr {
	size_t name_at;		/* in h->names, NUL-terminated */
	uint8_t type;		/* enum ehd__heph_type, array bit included */
	uint16_t count;		/* array: elements */
	uint32_t at;		/* the value (array: its first element) */
	uint32_t size;		/* bytes of the value (array: all elements) */
};

struct ehd__heph {
	struct ehd__in in;
	bool strict;		/* strings must be well-formed UTF-8 */
	uint64_t size;		/* of the input, UINT64_MAX when unknown */
	const uint8_t *buf;	/* the current packet, where @in has it */
	uint64_t packets;
	bool have_epoch;
	uint64_t epoch;		/* ns since 1970 UTC */

	/* the current event */
	struct ehd_event ev;
	struct ehd__event_internal internal;
	uint32_t packet_size;
	uint64_t substream;
	int64_t duration;
	struct attr *attrs;
	size_t nattrs, attrs_cap;
	struct ehd_buf names;

	struct ehd__err err;
};

static int fail(struct ehd__heph *h, int err, uint64_t off,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(struct ehd__heph *h, int err, uint64_t off,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ehd__err_vset(&h->err, err, off, fmt, ap);
	va_end(ap);
	return err;
}

static uint64_t be(const uint8_t *p, unsigned int size)
{
	return ehd__load_uint(p, size, 1);
}

bool ehd__heph_is_heph(const uint8_t *h, size_t n)
{
	uint32_t magic;

	if (n < 4)
		return false;
	magic = (uint32_t)be(h, 4);
	return magic == EHD__HEPH_META_MAGIC || magic == EHD__HEPH_EVENT_MAGIC;
}

void ehd__heph_set_strict(struct ehd__heph *h)
{
	h->strict = true;
}

int ehd__heph_open(struct ehd__heph **hp, int fd, const uint8_t *pre,
		   size_t npre, uint64_t size)
{
	struct ehd__heph *h = calloc(1, sizeof(*h));

	*hp = h;
	if (!h)
		return -ENOMEM;
	h->size = size;
	return ehd__in_open(&h->in, fd, pre, npre, EHD__IN_CHUNK);
}

void ehd__heph_free(struct ehd__heph *h)
{
	if (!h)
		return;
	ehd__in_free(&h->in);
	free(h->attrs);
	ehd__buf_free(&h->names);
	free(h);
}

/*
 * Have @n bytes of the packet at @at in the buffer, or all that is left:
 * 0, or < 0 with the error set.
 */
static int need(struct ehd__heph *h, size_t n, uint64_t at)
{
	int err = ehd__in_fill(&h->in, n);

	if (err == -ENOMEM)
		return fail(h, err, at, "out of memory");
	if (err)
		return fail(h, err, ehd__in_end(&h->in), "read: %s",
			    strerror(-err));
	return 0;
}

/*
 * Does a packet of @size bytes at @at end past the end of the file? The
 * size is looked at again first: a trace may still be growing.
 */
static bool past_end(struct ehd__heph *h, uint64_t at, uint32_t size)
{
	struct stat st;

	if (h->size == UINT64_MAX)
		return false;
	if (at <= h->size && size <= h->size - at)
		return false;
	if (!fstat(h->in.fd, &st) && st.st_size >= 0)
		h->size = (uint64_t)st.st_size;
	return at > h->size || size > h->size - at;
}

/* ---- metadata packets ---- */

static int metadata(struct ehd__heph *h, uint64_t at, uint32_t size)
{
	const uint8_t *p = h->buf;
	uint32_t n = (uint32_t)be(p + 8, 2), value;

	if (n > size - EHD__HEPH_META_HEAD)
		return fail(h, -EBADMSG, at + 8,
			    "metadata packet: option name of %u bytes goes past the packet's end (%u bytes)",
			    n, size);
	value = EHD__HEPH_META_HEAD + n;
	if (n != EHD__HEPH_EPOCH_LEN ||
	    memcmp(p + EHD__HEPH_META_HEAD, EHD__HEPH_EPOCH, n))
		return 0;	/* an option of a later version: skipped */
	if (size - value < 8)
		return fail(h, -EBADMSG, at + value,
			    "metadata packet: epoch value of %u bytes, not 8",
			    size - value);
	h->epoch = be(p + value, 8);
	h->have_epoch = true;
	return 0;
}

/* ---- event packets ---- */

static const char *type_name(uint8_t base)
{
	switch (base) {
	case EHD__HEPH_U64:
		return "u64";
	case EHD__HEPH_I64:
		return "i64";
	case EHD__HEPH_F64:
		return "f64";
	default:
		return "string";
	}
}

/* Check the values of the attribute whose type is at *@pos. */
static int attr_values(struct ehd__heph *h, uint64_t at, uint32_t size,
		       uint32_t *pos, struct attr *a, const char *name,
		       uint32_t name_len)
{
	const uint8_t *p = h->buf;
	size_t idx = h->nattrs + 1;
	int shown = (int)(name_len < NAME_SHOWN ? name_len : NAME_SHOWN);
	uint8_t t = p[*pos], base = t & (uint8_t)~EHD__HEPH_ARRAY;
	uint32_t i, count = 1, len;

	if (t == EHD__HEPH_ARRAY)
		return fail(h, -EBADMSG, at + *pos,
			    "attribute %zu (\"%.*s\"): untyped array (type 0x80 without a value type)",
			    idx, shown, name);
	if (base < EHD__HEPH_U64 || base > EHD__HEPH_STRING)
		return fail(h, -EBADMSG, at + *pos,
			    "attribute %zu (\"%.*s\"): unknown value type 0x%02x",
			    idx, shown, name, t);
	(*pos)++;
	if (t & EHD__HEPH_ARRAY) {
		if (size - *pos < 2)
			return fail(h, -EBADMSG, at + *pos,
				    "attribute %zu (\"%.*s\"): array count cut short by the packet's end",
				    idx, shown, name);
		count = (uint32_t)be(p + *pos, 2);
		*pos += 2;
	}
	a->type = t;
	a->count = (uint16_t)count;
	a->at = *pos;
	for (i = 0; i < count; i++) {
		char elem[40] = "";

		if (t & EHD__HEPH_ARRAY)
			snprintf(elem, sizeof(elem), " element %u of %u:", i,
				 count);
		if (base != EHD__HEPH_STRING) {
			if (size - *pos < 8)
				return fail(h, -EBADMSG, at + *pos,
					    "attribute %zu (\"%.*s\"):%s %s value cut short (%u of 8 bytes before the packet's end)",
					    idx, shown, name, elem,
					    type_name(base), size - *pos);
			*pos += 8;
			continue;
		}
		if (size - *pos < 2)
			return fail(h, -EBADMSG, at + *pos,
				    "attribute %zu (\"%.*s\"):%s string length cut short by the packet's end",
				    idx, shown, name, elem);
		len = (uint32_t)be(p + *pos, 2);
		if (len > size - *pos - 2)
			return fail(h, -EBADMSG, at + *pos,
				    "attribute %zu (\"%.*s\"):%s string of %u bytes goes past the packet's end (%u bytes left)",
				    idx, shown, name, elem, len,
				    size - *pos - 2);
		if (h->strict && ehd__utf8_well_formed((const char *)p + *pos + 2,
						       len) < len)
			return fail(h, -EBADMSG, at + *pos + 2 +
				    ehd__utf8_well_formed((const char *)p + *pos + 2,
							  len),
				    "attribute %zu (\"%.*s\"):%s string not well-formed UTF-8",
				    idx, shown, name, elem);
		*pos += 2 + len;
	}
	a->size = *pos - a->at;
	return 0;
}

/* Check and note the attribute at *@pos. */
static int attribute(struct ehd__heph *h, uint64_t at, uint32_t size,
		     uint32_t *pos)
{
	const uint8_t *p = h->buf;
	size_t idx = h->nattrs + 1;
	struct attr *a;
	const char *name;
	uint32_t n;
	int err;

	if (h->nattrs == h->attrs_cap) {
		size_t cap = h->attrs_cap ? 2 * h->attrs_cap : 16;

		a = realloc(h->attrs, cap * sizeof(*a));
		if (!a)
			return fail(h, -ENOMEM, at, "out of memory");
		h->attrs = a;
		h->attrs_cap = cap;
	}
	a = &h->attrs[h->nattrs];
	if (size - *pos < 2)
		return fail(h, -EBADMSG, at + *pos,
			    "attribute %zu: name length cut short by the packet's end",
			    idx);
	n = (uint32_t)be(p + *pos, 2);
	if (n > size - *pos - 2)
		return fail(h, -EBADMSG, at + *pos,
			    "attribute %zu: name of %u bytes goes past the packet's end (%u bytes left)",
			    idx, n, size - *pos - 2);
	name = (const char *)p + *pos + 2;
	if (h->strict && ehd__utf8_well_formed(name, n) < n)
		return fail(h, -EBADMSG, at + *pos + 2 +
			    ehd__utf8_well_formed(name, n),
			    "attribute %zu: name not well-formed UTF-8", idx);
	*pos += 2 + n;
	if (*pos == size)
		return fail(h, -EBADMSG, at + *pos,
			    "attribute %zu (\"%.*s\"): no value type before the packet's end",
			    idx, (int)(n < NAME_SHOWN ? n : NAME_SHOWN), name);
	err = attr_values(h, at, size, pos, a, name, n);
	if (err)
		return err;
	a->name_at = h->names.len;
	ehd__buf_put(&h->names, name, n);
	ehd__buf_putc(&h->names, 0);
	if (h->names.err)
		return fail(h, -ENOMEM, at, "out of memory");
	h->nattrs++;
	return 0;
}

static int fields_of(void *ctx, const struct ehd_event *ev,
		     struct ehd_enum *en, unsigned int flags);

static int event(struct ehd__heph *h, uint64_t at, uint32_t size)
{
	const uint8_t *p = h->buf;
	struct ehd_event *ev = &h->ev;
	uint32_t n = (uint32_t)be(p + EHD__HEPH_AT_DESC, 2), pos;
	uint64_t start = be(p + EHD__HEPH_AT_START, 8);
	const char *desc, *colon;
	int err;

	if (n > size - EHD__HEPH_EVENT_HEAD)
		return fail(h, -EBADMSG, at + EHD__HEPH_AT_DESC,
			    "event packet: description of %u bytes goes past the packet's end (%u bytes)",
			    n, size);
	pos = EHD__HEPH_EVENT_HEAD + n;
	if (h->strict &&
	    ehd__utf8_well_formed((const char *)p + EHD__HEPH_EVENT_HEAD, n) < n)
		return fail(h, -EBADMSG, at + EHD__HEPH_EVENT_HEAD +
			    ehd__utf8_well_formed((const char *)p +
						  EHD__HEPH_EVENT_HEAD, n),
			    "event packet: description not well-formed UTF-8");
	h->nattrs = 0;
	ehd__buf_reset(&h->names);
	while (pos < size) {
		err = attribute(h, at, size, &pos);
		if (err)
			return err;
	}

	memset(ev, 0, sizeof(*ev));
	memset(&h->internal, 0, sizeof(h->internal));
	h->internal.fields = fields_of;
	h->internal.ctx = h;
	ev->internal = &h->internal;
	ev->kind = EHD_EVENT_HEPH;
	ev->source_offset = at;
	ev->long_size = 8;
	ev->big_endian = 1;
	ev->data = p;
	ev->size = size;
	ev->tracepoint = "";
	desc = (const char *)p + EHD__HEPH_EVENT_HEAD;
	colon = memchr(desc, ':', n);
	if (colon) {
		ev->provider = desc;
		ev->provider_len = (size_t)(colon - desc);
		ev->name = colon + 1;
		ev->name_len = n - ev->provider_len - 1;
	} else {
		ev->provider = "";
		ev->name = desc;
		ev->name_len = n;
	}
	ev->context = EHD_CTX_TIME | EHD_CTX_PID;
	ev->time = start;
	if (h->have_epoch) {
		ev->context |= EHD_CTX_TIME_UTC;
		ev->time = h->epoch + start;
	}
	ev->pid = (uint32_t)be(p + EHD__HEPH_AT_STREAM, 4);
	h->substream = be(p + EHD__HEPH_AT_SUBSTREAM, 8);
	ev->tid = (uint32_t)h->substream;
	h->duration = (int64_t)(be(p + EHD__HEPH_AT_END, 8) - start);
	h->packet_size = size;
	return 0;
}

int ehd__heph_next(struct ehd__heph *h, const struct ehd_event **ev)
{
	*ev = NULL;
	if (h->err.err)
		return h->err.err;
	for (;;) {
		uint64_t at = ehd__in_offset(&h->in);
		const char *kind;
		const uint8_t *hdr;
		uint32_t magic, size, head;
		size_t n;
		int err;

		/* The header is looked at where it is: the packet follows. */
		err = need(h, 8, at);
		if (err)
			return err;
		n = ehd__in_avail(&h->in);
		hdr = ehd__in_peek(&h->in);
		if (n == 0)
			return 0;
		if (n < 8)
			return fail(h, -EBADMSG, at,
				    "packet header cut short (%zu of 8 bytes)", n);
		magic = (uint32_t)be(hdr, 4);
		size = (uint32_t)be(hdr + 4, 4);
		if (magic == EHD__HEPH_META_MAGIC) {
			kind = "metadata";
			head = EHD__HEPH_META_HEAD;
		} else if (magic == EHD__HEPH_EVENT_MAGIC) {
			kind = "event";
			head = EHD__HEPH_EVENT_HEAD;
		} else {
			return fail(h, -EBADMSG, at,
				    "bad magic 0x%08x: not a metadata (0x%08x) or event (0x%08x) packet",
				    magic, EHD__HEPH_META_MAGIC,
				    EHD__HEPH_EVENT_MAGIC);
		}
		if (size < head)
			return fail(h, -EBADMSG, at + 4,
				    "%s packet of %u bytes, shorter than its %u-byte header",
				    kind, size, head);
		if (past_end(h, at, size))
			return fail(h, -EBADMSG, at + 4,
				    "%s packet of %u bytes goes past the end of the file (%llu bytes left)",
				    kind, size, (unsigned long long)
				    (h->size > at ? h->size - at : 0));
		if (size > PACKET_MAX)
			return fail(h, -EFBIG, at + 4,
				    "%s packet of %u bytes, more than the %u read",
				    kind, size, PACKET_MAX);
		err = need(h, size, at);
		if (err)
			return err;
		n = ehd__in_avail(&h->in);
		if (n < size)
			return fail(h, -EBADMSG, at,
				    "%s packet of %u bytes cut short: the input ends after %zu",
				    kind, size, n);
		h->buf = ehd__in_peek(&h->in);
		ehd__in_skip(&h->in, size);
		h->packets++;
		if (magic == EHD__HEPH_META_MAGIC) {
			err = metadata(h, at, size);
			if (err)
				return err;
			continue;
		}
		err = event(h, at, size);
		if (err)
			return err;
		*ev = &h->ev;
		return 1;
	}
}

/* ---- fields ---- */

struct walk {
	struct ehd__heph *h;
	struct ehd_enum *en;
	unsigned int items;
};

static struct ehd_item *add_item(struct walk *w, int state, const char *name,
				 int *err)
{
	struct ehd_item *it;

	if (++w->items > ITEMS_MAX) {
		*err = ehd__enum_fail(w->en, -E2BIG, 0,
				      "more items than the step limit");
		return NULL;
	}
	it = ehd__enum_add(w->en, state);
	if (!it) {
		*err = ehd__enum_fail(w->en, -ENOMEM, 0, "out of memory");
		return NULL;
	}
	it->name = name;
	return it;
}

/* Encoding and format of a value of type @base. */
static void typed(struct ehd_item *it, uint8_t base)
{
	if (base == EHD__HEPH_STRING) {
		it->encoding = EH_ENC_STRING_LENGTH16_CHAR8;
		it->format = EH_FMT_STRING_UTF;
		return;
	}
	it->encoding = EH_ENC_VALUE64;
	it->format = base == EHD__HEPH_U64 ? EH_FMT_UNSIGNED_INT :
		     base == EHD__HEPH_I64 ? EH_FMT_SIGNED_INT : EH_FMT_FLOAT;
	it->element_size = 8;
	it->swap = !ehd__host_big();
}

static int attr_items(struct walk *w, const struct attr *a)
{
	const uint8_t *p = w->h->buf;
	const char *name = w->h->names.p + a->name_at;
	uint8_t base = a->type & (uint8_t)~EHD__HEPH_ARRAY;
	bool array = a->type & EHD__HEPH_ARRAY;
	uint32_t pos = a->at, i, n = array ? a->count : 1;
	struct ehd_item *it;
	int err = 0;

	if (array) {
		it = add_item(w, EHD_STATE_ARRAY_BEGIN, name, &err);
		if (!it)
			return err;
		typed(it, base);
		it->array_flags = EH_ENC_VARRAY_FLAG;
		it->array_count = (uint16_t)n;
		if (base != EHD__HEPH_STRING) {
			it->value = p + a->at;
			it->value_size = a->size;
		}
	}
	for (i = 0; i < n; i++) {
		it = add_item(w, EHD_STATE_VALUE, name, &err);
		if (!it)
			return err;
		typed(it, base);
		if (array) {
			it->array_flags = EH_ENC_VARRAY_FLAG;
			it->array_index = (uint16_t)i;
			it->array_count = (uint16_t)n;
		}
		if (base == EHD__HEPH_STRING) {
			it->value = p + pos + 2;
			it->value_size = (uint32_t)be(p + pos, 2);
			pos += 2 + it->value_size;
		} else {
			it->value = p + pos;
			it->value_size = 8;
			pos += 8;
		}
	}
	if (array) {
		it = add_item(w, EHD_STATE_ARRAY_END, name, &err);
		if (!it)
			return err;
		typed(it, base);
		it->array_flags = EH_ENC_VARRAY_FLAG;
		it->array_count = (uint16_t)n;
	}
	return 0;
}

/* A value of the packet's own (not an attribute), in host byte order. */
static int own_value(struct walk *w, const char *name, const void *v,
		     uint8_t format)
{
	struct ehd_item *it;
	int err = 0;

	it = add_item(w, EHD_STATE_VALUE, name, &err);
	if (!it)
		return err;
	it->encoding = EH_ENC_VALUE64;
	it->format = format;
	it->element_size = 8;
	it->value = v;
	it->value_size = 8;
	return 0;
}

static int fields_of(void *ctx, const struct ehd_event *ev,
		     struct ehd_enum *en, unsigned int flags)
{
	struct ehd__heph *h = ctx;
	struct walk w = { h, en, 0 };
	size_t i;
	int err = 0;

	(void)flags;
	if (ev != &h->ev)
		return -EINVAL;
	ehd__enum_begin_list(en, h->buf, h->packet_size);
	for (i = 0; i < h->nattrs && !err; i++)
		err = attr_items(&w, &h->attrs[i]);
	if (!err)
		err = own_value(&w, "duration_ns", &h->duration,
				EH_FMT_SIGNED_INT);
	if (!err && h->substream > UINT32_MAX)
		err = own_value(&w, "substream_id", &h->substream,
				EH_FMT_UNSIGNED_INT);
	/* Too many items end the walk there: ehd_enum_next() says it. */
	return err == -ENOMEM ? err : 0;
}

/* ---- information ---- */

uint64_t ehd__heph_packets(const struct ehd__heph *h)
{
	return h->packets;
}

void ehd__heph_trace_info(const struct ehd__heph *h,
			  struct ehd_trace_info *info)
{
	info->big_endian = 1;
	info->has_clock_offset = h->have_epoch;
	info->clock_offset = h->have_epoch ? h->epoch : 0;
}

const char *ehd__heph_error(const struct ehd__heph *h, uint64_t *offset)
{
	return ehd__err_get(&h->err, offset);
}

/* ---- as an input of ehd_reader ---- */

struct heph_read {
	struct ehd__heph *h;
	struct ehd__err *err;	/* the front end's */
};

static bool heph_probe(const uint8_t *head, size_t n)
{
	return ehd__heph_is_heph(head, n);
}

static int heph_open(void *state, const struct ehd__input_src *src)
{
	struct heph_read *hr = state;
	int err;

	hr->err = src->err;
	err = ehd__input_after_head(src);
	if (err)
		return err;
	if (ehd__heph_open(&hr->h, src->fd, src->head, src->nhead, src->size))
		return ehd__err_set(hr->err, -ENOMEM, 0, "out of memory");
	if (src->flags & EHD_READER_STRICT)
		ehd__heph_set_strict(hr->h);
	return EHD_INPUT_HEPH;
}

static int heph_next(void *state, const struct ehd_event **ev)
{
	struct heph_read *hr = state;
	uint64_t off = 0;
	const char *why;
	int ret = ehd__heph_next(hr->h, ev);

	if (ret >= 0)
		return ret;
	why = ehd__heph_error(hr->h, &off);
	return ehd__err_take(hr->err, ret, why, off);
}

static void heph_trace_info(void *state, struct ehd_trace_info *info)
{
	struct heph_read *hr = state;

	if (hr->h)
		ehd__heph_trace_info(hr->h, info);
}

static void heph_stats(const void *state, struct ehd_reader_stats *stats)
{
	const struct heph_read *hr = state;

	if (hr->h)
		stats->records = ehd__heph_packets(hr->h);
}

static void heph_free(void *state)
{
	struct heph_read *hr = state;

	ehd__heph_free(hr->h);
}

const struct ehd__input_ops ehd__heph_input = {
	.name = "heph", .what = "a Heph trace", .kinds = 1u << EHD_INPUT_HEPH,
	.state_size = sizeof(struct heph_read),
	.probe = heph_probe, .open = heph_open, .next = heph_next,
	.trace_info = heph_trace_info, .stats = heph_stats, .free = heph_free,
};
