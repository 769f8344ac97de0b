// SPDX-License-Identifier: MIT
/*
 * tracefs-json.c - fields of classic (non-EventHeader) tracepoints as JSON
 *
 * libtraceevent parses the tracefs "format" text; the kind of each field is
 * then deduced from its C type the way the reference decoder does, so the
 * output matches it:
 *	pointers ('*')				hex, pointer-sized
 *	struct ...				bytes (hex)
 *	char					string (Latin-1, up to a NUL)
 *	signed/unsigned char			signed/unsigned
 *	int, short, long, long long, signed, unsigned
 *						signed or unsigned
 *	unsigned long				hex
 *	u8 __u8 uint8_t ... s64 __s64 int64_t	that exact kind
 *	any other type name (pid_t ...)		hex
 * A known signedness from the format's "signed:" wins for signed and
 * unsigned kinds; "[N]" is a fixed array, __data_loc / __rel_loc a
 * dynamic one. Arrays become JSON arrays, except arrays of chars
 * (strings) and of unknown bytes (one hex string).
 */
#include <errno.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "ehd-bytes.h"
#include "json-values.h"
#include "tracefs-json.h"

enum kind { K_BYTES, K_UNSIGNED, K_SIGNED, K_HEX, K_STRING };

struct ftype {
	enum kind kind;
	unsigned int elem;	/* element size, 0 if unknown */
};

/* The fixed-width type names: size and signedness. */
static const struct {
	const char *name;
	unsigned int size;
	int is_signed;
} fixed_names[] = {
	{ "u8", 1, 0 }, { "__u8", 1, 0 }, { "uint8_t", 1, 0 },
	{ "s8", 1, 1 }, { "__s8", 1, 1 }, { "int8_t", 1, 1 },
	{ "u16", 2, 0 }, { "__u16", 2, 0 }, { "uint16_t", 2, 0 },
	{ "s16", 2, 1 }, { "__s16", 2, 1 }, { "int16_t", 2, 1 },
	{ "u32", 4, 0 }, { "__u32", 4, 0 }, { "uint32_t", 4, 0 },
	{ "s32", 4, 1 }, { "__s32", 4, 1 }, { "int32_t", 4, 1 },
	{ "u64", 8, 0 }, { "__u64", 8, 0 }, { "uint64_t", 8, 0 },
	{ "s64", 8, 1 }, { "__s64", 8, 1 }, { "int64_t", 8, 1 },
};

/* What the words of a C type say. */
struct words {
	int longs, is_short, is_char, is_int, is_unsigned, is_signed;
	int is_struct, fixed;	/* fixed: index + 1 in fixed_names */
	int other;		/* a type name we do not know */
};

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static void read_words(const char *t, struct words *w)
{
	memset(w, 0, sizeof(*w));
	while (*t) {
		const char *s;
		size_t n, i;

		if (!ident_char(*t) || (*t >= '0' && *t <= '9')) {
			t++;
			continue;
		}
		for (s = t; ident_char(*t); t++)
			;
		n = (size_t)(t - s);
#define IS(word) (n == sizeof(word) - 1 && !strncmp(s, word, n))
		if (IS("long"))
			w->longs++;
		else if (IS("short"))
			w->is_short = 1;
		else if (IS("char"))
			w->is_char = 1;
		else if (IS("int"))
			w->is_int = 1;
		else if (IS("unsigned"))
			w->is_unsigned = 1;
		else if (IS("signed"))
			w->is_signed = 1;
		else if (IS("struct"))
			w->is_struct = 1;
		else if (!IS("const") && !IS("volatile") && !IS("__data_loc") &&
			 !IS("__rel_loc")) {
			for (i = 0; i < sizeof(fixed_names) / sizeof(fixed_names[0]); i++)
				if (strlen(fixed_names[i].name) == n &&
				    !strncmp(s, fixed_names[i].name, n))
					w->fixed = (int)i + 1;
			if (!w->fixed)
				w->other = 1;
		}
#undef IS
	}
}

static struct ftype deduce(const struct tep_format_field *f, int long_size)
{
	const char *t = f->type ? f->type : "";
	struct ftype r = { K_HEX, 0 };
	struct words w;

	if (strchr(t, '*')) {
		r.elem = (unsigned int)long_size;	/* pointers: hex */
		return r;
	}
	read_words(t, &w);
	if (w.is_struct) {
		r.kind = K_BYTES;
		r.elem = 1;
		return r;
	}
	if (w.fixed) {
		r.kind = fixed_names[w.fixed - 1].is_signed ? K_SIGNED : K_UNSIGNED;
		r.elem = fixed_names[w.fixed - 1].size;
	} else if (w.other) {
		return r;	/* pid_t, size_t, bool ...: hex */
	} else if (w.is_char) {
		r.elem = 1;
		if (!w.is_unsigned && !w.is_signed) {
			r.kind = K_STRING;
			return r;
		}
		r.kind = w.is_unsigned ? K_UNSIGNED : K_SIGNED;
	} else {
		r.elem = w.is_short ? 2 : w.longs >= 2 ? 8 :
			 w.longs == 1 ? (unsigned int)long_size : 4;
		if (w.is_unsigned && w.longs == 1)
			return r;	/* unsigned long: hex */
		r.kind = w.is_unsigned ? K_UNSIGNED : K_SIGNED;
	}
	/* The format's "signed:" wins. */
	r.kind = (f->flags & TEP_FIELD_IS_SIGNED) ? K_SIGNED : K_UNSIGNED;
	return r;
}

static void scalar(struct ehd_buf *b, enum kind kind, const uint8_t *p,
		   unsigned int size, int big)
{
	uint64_t v;

	if (kind == K_BYTES || (size != 1 && size != 2 && size != 4 &&
				size != 8)) {
		ehd__json_hex_bytes(b, p, size, EHD__JSON);
		return;
	}
	v = ehd__load_uint(p, size, big);
	switch (kind) {
	case K_SIGNED:
		ehd__json_i64(b, (int64_t)(v << (64 - 8 * size)) >> (64 - 8 * size));
		break;
	case K_UNSIGNED:
		ehd__json_u64(b, v);
		break;
	default:
		ehd__json_hex(b, v, size, EHD__JSON);
		break;
	}
}

/* Where the bytes of a field are in @raw; -EBADMSG if outside. */
static int locate(const struct tep_format_field *f, const uint8_t *raw,
		  size_t size, int big, const uint8_t **p, size_t *len)
{
	size_t off = f->offset, n = f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;

		if ((size_t)f->offset + 4 > size || f->size < 4)
			return -EBADMSG;
		loc = (uint32_t)ehd__load_uint(raw + f->offset, 4, big);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else if (f->size == 0) {
		n = size > off ? size - off : 0;	/* the rest of the event */
	}
	if (off > size || n > size - off)
		return -EBADMSG;
	*p = raw + off;
	*len = n;
	return 0;
}

void ehd__json_tracefs_field(struct ehd_buf *b, const struct tep_format_field *f,
			     const uint8_t *raw, size_t size, int long_size,
			     int big)
{
	struct ftype t = deduce(f, long_size);
	const uint8_t *p;
	size_t len, i, n;
	unsigned int elem;
	int array = (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) != 0;

	if (locate(f, raw, size, big, &p, &len)) {
		ehd__buf_puts(b, "null");
		return;
	}
	if (t.kind == K_STRING) {
		const uint8_t *nul = memchr(p, 0, len);

		ehd__json_latin1(b, p, nul ? (size_t)(nul - p) : len, EHD__JSON);
		return;
	}
	if (!array) {
		scalar(b, t.kind, p, (unsigned int)len, big);
		return;
	}
	elem = t.elem;
	if (!elem && f->arraylen)
		elem = (unsigned int)(f->size / f->arraylen);
	if (!elem)
		elem = 1;
	/* Arrays of bytes of unknown meaning: one hex string. */
	if (elem == 1 && (t.kind == K_BYTES || (t.kind == K_HEX && !t.elem))) {
		ehd__json_hex_bytes(b, p, len, EHD__JSON);
		return;
	}
	n = len / elem;
	ehd__buf_putc(b, '[');
	for (i = 0; i < n; i++) {
		if (i)
			ehd__buf_putc(b, ',');
		scalar(b, t.kind, p + i * elem, elem, big);
	}
	ehd__buf_putc(b, ']');
}
