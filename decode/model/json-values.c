// SPDX-License-Identifier: MIT
/*
 * json-values.c - rendering of decoded field values as JSON text
 *
 * See json-values.h for the conventions: which values are quoted, how
 * strings are escaped and which (not always valid) UTF-8 is written.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "core/ehd-bytes.h"
#include "model/json-values.h"

/* ---- writing straight into the buffer ---------------------------------- */

/*
 * Reserve room for @max more bytes and return where to write, or NULL if
 * the buffer is (now) in error. Finish with wr_end().
 */
static char *wr_begin(struct ehd_buf *b, size_t max)
{
	if (ehd__buf_reserve(b, max))
		return NULL;
	return b->p + b->len;
}

static void wr_end(struct ehd_buf *b, char *w)
{
	b->len = (size_t)(w - b->p);
	b->p[b->len] = 0;
}

/* @v as exactly @n decimal digits (leading zeros), at @w; returns the end. */
static char *put_digits(char *w, unsigned int v, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--) {
		w[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return w + n;
}

/**
 * ehd__json_nanoseconds() - append ".nnnnnnnnn" (9 digits)
 * @b: buffer
 * @ns: 0..999999999
 */
void ehd__json_nanoseconds(struct ehd_buf *b, uint32_t ns)
{
	char *w = wr_begin(b, 10);

	if (!w)
		return;
	*w++ = '.';
	wr_end(b, put_digits(w, ns, 9));
}

/* Room for @n input units of at most @per output bytes each, plus @extra. */
static size_t room(size_t n, size_t per, size_t extra)
{
	if (n > (SIZE_MAX - extra) / per)
		return SIZE_MAX;	/* the reserve fails: -ENOMEM */
	return n * per + extra;
}

static const char hex_lower[] = "0123456789abcdef";
static const char hex_upper[] = "0123456789ABCDEF";

static inline bool needs_escape(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\';
}

/* Write the JSON escape of @c (needs_escape(c)): 2 or 6 bytes. */
static char *put_escape(char *w, unsigned char c)
{
	*w++ = '\\';
	switch (c) {
	case '\\':
		*w++ = '\\';
		break;
	case '"':
		*w++ = '"';
		break;
	case '\b':
		*w++ = 'b';
		break;
	case '\f':
		*w++ = 'f';
		break;
	case '\n':
		*w++ = 'n';
		break;
	case '\r':
		*w++ = 'r';
		break;
	case '\t':
		*w++ = 't';
		break;
	default:
		*w++ = 'u';
		*w++ = '0';
		*w++ = '0';
		*w++ = hex_lower[c >> 4];
		*w++ = hex_lower[c & 0xf];
		break;
	}
	return w;
}

static inline char *put_ascii(char *w, unsigned char c, bool esc)
{
	if (esc && needs_escape(c))
		return put_escape(w, c);
	*w++ = (char)c;
	return w;
}

/* @len bytes of text at @s, escaped (at most 6 bytes each). */
static char *put_escaped(char *w, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		w = put_ascii(w, (unsigned char)s[i], true);
	return w;
}

/* @v in uppercase hex without leading zeros ("0" for 0): 1..16 bytes. */
static char *put_hex_digits(char *w, uint64_t v)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = hex_upper[v & 0xf];
		v >>= 4;
	} while (v);
	while (n)
		*w++ = tmp[--n];
	return w;
}

/*
 * Write code point @c as UTF-8 (1..7 bytes), escaping ASCII if @esc.
 * Surrogates are written as 3-byte sequences; values above 0x10FFFF in the
 * extended forms: 4 bytes up to 0x1FFFFF, 5 up to 0x3FFFFFF, 6 up to
 * 0x7FFFFFFF, and lead byte 0xfe with six continuation bytes above.
 */
static char *put_cp(char *w, uint32_t c, bool esc)
{
	int n, i;

	if (c < 0x80)
		return put_ascii(w, (unsigned char)c, esc);
	if (c < 0x800)
		n = 2;
	else if (c < 0x10000)
		n = 3;
	else if (c < 0x200000)
		n = 4;
	else if (c < 0x4000000)
		n = 5;
	else if (c < 0x80000000)
		n = 6;
	else
		n = 7;
	for (i = n - 1; i > 0; i--) {
		w[i] = (char)(0x80 | (c & 0x3f));
		c >>= 6;
	}
	/* n leading one bits (0xc0 .. 0xfc, 0xfe), then what is left of c */
	w[0] = (char)(unsigned char)((0xff00u >> n) | c);
	return w + n;
}

static inline uint16_t swap16(uint16_t v)
{
	return (uint16_t)((v >> 8) | (v << 8));
}

static inline uint32_t swap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) |
	       (v << 24);
}

static inline uint16_t get16(const unsigned char *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? swap16(v) : v;
}

static inline uint32_t get32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? swap32(v) : v;
}

/* ---- strings ---------------------------------------------------------- */

/**
 * ehd__json_string() - append a JSON string literal
 * @b:   buffer
 * @s:   UTF-8 text (not checked: bytes >= 0x80 are copied as they are)
 * @len: bytes in @s (NUL bytes included, escaped as \u0000)
 *
 * Appends "..." with @s escaped as described in json-values.h. Always
 * quoted; used for names and for text that is already UTF-8.
 */
void ehd__json_string(struct ehd_buf *b, const char *s, size_t len)
{
	char *w = wr_begin(b, room(len, 6, 2));

	if (!w)
		return;
	*w++ = '"';
	w = put_escaped(w, s, len);
	*w++ = '"';
	wr_end(b, w);
}

/**
 * ehd__json_key() - append a member name and its colon
 * @b:     buffer
 * @name:  the name (escaped as needed)
 * @len:   its length
 * @tag:   a field tag to show as ";tag=0xN" (0: none)
 * @space: a space after the colon
 */
void ehd__json_key(struct ehd_buf *b, const char *name, size_t len,
		   uint16_t tag, bool space)
{
	char *w = wr_begin(b, room(len, 6, 20));

	if (!w)
		return;
	*w++ = '"';
	w = put_escaped(w, name, len);
	if (tag) {
		memcpy(w, ";tag=0x", 7);
		w = put_hex_digits(w + 7, tag);
	}
	*w++ = '"';
	*w++ = ':';
	if (space)
		*w++ = ' ';
	wr_end(b, w);
}

/**
 * ehd__json_escape() - append JSON-escaped text without quotes
 * @b:   buffer
 * @s:   UTF-8 text (not checked)
 * @len: bytes in @s
 *
 * Like ehd__json_string() without the quotes, for building one JSON string
 * out of several pieces.
 */
void ehd__json_escape(struct ehd_buf *b, const char *s, size_t len)
{
	char *w = wr_begin(b, room(len, 6, 0));

	if (w)
		wr_end(b, put_escaped(w, s, len));
}

/**
 * ehd__json_char() - append one character value
 * @b:     buffer
 * @cp:    code point: a Latin-1 byte (Value8 string8), a UTF-16 unit
 *         (Value16 string_utf; a surrogate stays alone) or a UTF-32 unit
 *         (Value32 string_utf; any value)
 * @flags: EHD__JSON for "x" (quoted, escaped), 0 for the bare character
 *
 * Writes the code point with put_cp()'s rules, e.g. 0xFE -> "þ",
 * 0 -> "\u0000", 0xFFFEFDFC -> 7 bytes fe 83 bf bf af b7 bc.
 */
void ehd__json_char(struct ehd_buf *b, uint32_t cp, unsigned int flags)
{
	bool q = flags & EHD__JSON_QUOTE;
	char *w = wr_begin(b, 9);

	if (!w)
		return;
	if (q)
		*w++ = '"';
	w = put_cp(w, cp, flags & EHD__JSON_ESCAPE);
	if (q)
		*w++ = '"';
	wr_end(b, w);
}

/* The text encodings put_text() converts from. */
enum text { TEXT_LATIN1, TEXT_UTF8, TEXT_UTF16, TEXT_UTF32 };

static void put_text(struct ehd_buf *b, const unsigned char *s, size_t size,
		     enum text t, bool swap, unsigned int flags);

/**
 * ehd__json_latin1() - append Latin-1 text (format string8)
 * @b:     buffer
 * @p:     bytes; each is one code point U+0000..U+00FF
 * @size:  number of bytes
 * @flags: EHD__JSON for a quoted, escaped JSON string; 0 for bare UTF-8
 */
void ehd__json_latin1(struct ehd_buf *b, const void *p, size_t size,
		      unsigned int flags)
{
	put_text(b, p, size, TEXT_LATIN1, false, flags);
}

/*
 * Length of the valid UTF-8 sequence at @s (@n > 0 bytes left), 0 if the
 * byte at @s does not start one. Valid: ASCII; C2..DF + 1 continuation
 * byte; E0..EF + 2 giving U+0800..U+FFFF, surrogates included;
 * F0..F4 + 3 giving U+10000..U+10FFFF. Overlong forms are invalid.
 */
size_t ehd__utf8_valid_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c < 0xc2)
		return 0;
	if (c < 0xe0)
		return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c < 0xf0) {
		if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		cp = (uint32_t)(c & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 |
		     (s[2] & 0x3f);
		return cp >= 0x800 ? 3 : 0;
	}
	if (c < 0xf5) {
		if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		cp = (uint32_t)(c & 0x07) << 18 |
		     (uint32_t)(s[1] & 0x3f) << 12 |
		     (uint32_t)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
		return cp >= 0x10000 && cp <= 0x10ffff ? 4 : 0;
	}
	return 0;
}

/* UTF-8 with Latin-1 fallback, no quotes. */
static char *put_utf8(char *w, const unsigned char *s, size_t size, bool esc)
{
	size_t i = 0, n;

	while (i < size) {
		if (s[i] < 0x80) {
			w = put_ascii(w, s[i++], esc);
			continue;
		}
		n = ehd__utf8_valid_len(s + i, size - i);
		if (n) {
			memcpy(w, s + i, n);
			w += n;
			i += n;
		} else {
			w = put_cp(w, s[i++], false);	/* as Latin-1 */
		}
	}
	return w;
}

/**
 * ehd__json_utf8() - append UTF-8 text, invalid bytes read as Latin-1
 * @b:     buffer
 * @p:     bytes
 * @size:  number of bytes
 * @flags: EHD__JSON for a quoted, escaped JSON string; 0 for bare UTF-8
 *
 * Valid sequences (see ehd__utf8_valid_len(): 3-byte surrogates are kept,
 * overlong forms and values above U+10FFFF are not) are copied; every
 * other byte is taken as a Latin-1 code point on its own and written as
 * 2 bytes, and decoding goes on with the next byte. A sequence cut off by
 * the end of the data is therefore written byte by byte as Latin-1.
 */
void ehd__json_utf8(struct ehd_buf *b, const void *p, size_t size,
		    unsigned int flags)
{
	put_text(b, p, size, TEXT_UTF8, false, flags);
}

/* UTF-16 units, pairs joined, lone surrogates kept; no quotes. */
static char *put_utf16(char *w, const unsigned char *s, size_t units,
		       bool swap, bool esc)
{
	size_t i;
	uint32_t c, lo;

	for (i = 0; i < units; i++) {
		c = get16(s + 2 * i, swap);
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < units) {
			lo = get16(s + 2 * i + 2, swap);
			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				i++;
			}
		}
		w = put_cp(w, c, esc);
	}
	return w;
}

/**
 * ehd__json_utf16() - append UTF-16 text
 * @b:     buffer
 * @p:     code units, any alignment
 * @size:  size in bytes; a trailing odd byte is ignored
 * @swap:  the units are in the opposite of host byte order
 * @flags: EHD__JSON for a quoted, escaped JSON string; 0 for bare UTF-8
 *
 * A high surrogate followed by a low one gives one 4-byte sequence; any
 * other surrogate is written alone as a 3-byte sequence.
 */
void ehd__json_utf16(struct ehd_buf *b, const void *p, size_t size, bool swap,
		     unsigned int flags)
{
	put_text(b, p, size, TEXT_UTF16, swap, flags);
}

static char *put_utf32(char *w, const unsigned char *s, size_t units,
		       bool swap, bool esc)
{
	size_t i;

	for (i = 0; i < units; i++)
		w = put_cp(w, get32(s + 4 * i, swap), esc);
	return w;
}

/*
 * Append @size bytes of text in encoding @t (whole units only), quoted
 * and escaped as @flags say: the common part of the string converters.
 */
static void put_text(struct ehd_buf *b, const unsigned char *s, size_t size,
		     enum text t, bool swap, unsigned int flags)
{
	bool esc = flags & EHD__JSON_ESCAPE, q = flags & EHD__JSON_QUOTE;
	size_t units = t == TEXT_UTF16 ? size / 2 : t == TEXT_UTF32 ? size / 4 : size;
	char *w = wr_begin(b, room(units, t == TEXT_UTF32 ? 7 : 6, 2));
	size_t i;

	if (!w)
		return;
	if (q)
		*w++ = '"';
	switch (t) {
	case TEXT_LATIN1:
		for (i = 0; i < size; i++)
			w = put_cp(w, s[i], esc);
		break;
	case TEXT_UTF8:
		w = put_utf8(w, s, size, esc);
		break;
	case TEXT_UTF16:
		w = put_utf16(w, s, units, swap, esc);
		break;
	case TEXT_UTF32:
		w = put_utf32(w, s, units, swap, esc);
		break;
	}
	if (q)
		*w++ = '"';
	wr_end(b, w);
}

/**
 * ehd__json_utf32() - append UTF-32 text
 * @b:     buffer
 * @p:     code units, any alignment
 * @size:  size in bytes; 1..3 trailing bytes are ignored
 * @swap:  the units are in the opposite of host byte order
 * @flags: EHD__JSON for a quoted, escaped JSON string; 0 for bare text
 *
 * Every unit is written with put_cp(): surrogates as 3 bytes and values
 * above 0x10FFFF as 4..7 bytes (e.g. 0x7FFFFFFF -> fd bf bf bf bf bf).
 */
void ehd__json_utf32(struct ehd_buf *b, const void *p, size_t size, bool swap,
		     unsigned int flags)
{
	put_text(b, p, size, TEXT_UTF32, swap, flags);
}

/**
 * ehd__json_utf_bom() - append text of format string_utf_bom/xml/json
 * @b:         buffer
 * @p:         bytes
 * @size:      number of bytes
 * @unit_size: the encoding's code unit size, 1, 2 or 4 (used without BOM)
 * @swap:      units not in host byte order (used without BOM)
 * @flags:     EHD__JSON for a quoted, escaped JSON string; 0 for bare text
 *
 * The first bytes are checked for a byte order mark whatever @unit_size
 * is, in this order: ff fe 00 00 (UTF-32LE), 00 00 fe ff (UTF-32BE),
 * ff fe (UTF-16LE), fe ff (UTF-16BE), ef bb bf (UTF-8). A BOM found is
 * skipped and the rest decoded in its encoding (whole units only). Without
 * a BOM the text is decoded like format string_utf of @unit_size: UTF-8
 * with Latin-1 fallback, UTF-16 or UTF-32 (any other @unit_size: UTF-8).
 */
void ehd__json_utf_bom(struct ehd_buf *b, const void *p, size_t size,
		       unsigned int unit_size, bool swap, unsigned int flags)
{
	const unsigned char *s = p;
	bool le = !ehd__host_big();

	if (size >= 4 && s[0] == 0xff && s[1] == 0xfe && !s[2] && !s[3])
		ehd__json_utf32(b, s + 4, size - 4, !le, flags);
	else if (size >= 4 && !s[0] && !s[1] && s[2] == 0xfe && s[3] == 0xff)
		ehd__json_utf32(b, s + 4, size - 4, le, flags);
	else if (size >= 2 && s[0] == 0xff && s[1] == 0xfe)
		ehd__json_utf16(b, s + 2, size - 2, !le, flags);
	else if (size >= 2 && s[0] == 0xfe && s[1] == 0xff)
		ehd__json_utf16(b, s + 2, size - 2, le, flags);
	else if (size >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		ehd__json_utf8(b, s + 3, size - 3, flags);
	else if (unit_size == 2)
		ehd__json_utf16(b, s, size, swap, flags);
	else if (unit_size == 4)
		ehd__json_utf32(b, s, size, swap, flags);
	else
		ehd__json_utf8(b, s, size, flags);
}

/* ---- integers --------------------------------------------------------- */

static char *put_u64(char *w, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*w++ = tmp[--n];
	return w;
}

static char *put_i64(char *w, int64_t v)
{
	if (v < 0) {
		*w++ = '-';
		return put_u64(w, -(uint64_t)v);
	}
	return put_u64(w, (uint64_t)v);
}

/**
 * ehd__json_u64() - append an unsigned decimal (unquoted)
 * @b: buffer
 * @v: value (formats unsigned_int; port values go to ehd__json_port())
 */
void ehd__json_u64(struct ehd_buf *b, uint64_t v)
{
	char *w = wr_begin(b, 20);

	if (w)
		wr_end(b, put_u64(w, v));
}

/**
 * ehd__json_i64() - append a signed decimal (unquoted)
 * @b: buffer
 * @v: value, sign-extended from its field width (signed_int, pid)
 */
void ehd__json_i64(struct ehd_buf *b, int64_t v)
{
	char *w = wr_begin(b, 20);

	if (w)
		wr_end(b, put_i64(w, v));
}

/**
 * ehd__json_hex() - append an integer as "0x%X"
 * @b:     buffer
 * @v:     value; only its low @size bytes are used, so a sign-extended
 *         negative value prints as the field's bits: int8 -128 -> "0x80"
 * @size:  field width in bytes, 1, 2, 4 or 8 (others: 8)
 * @flags: EHD__JSON_QUOTE for "0x80", 0 for 0x80
 *
 * Uppercase digits without leading zeros; 0 is "0x0".
 */
void ehd__json_hex(struct ehd_buf *b, uint64_t v, unsigned int size,
		   unsigned int flags)
{
	bool q = flags & EHD__JSON_QUOTE;
	char *w;

	if (size && size < 8)
		v &= (UINT64_C(1) << (8 * size)) - 1;
	w = wr_begin(b, 20);
	if (!w)
		return;
	if (q)
		*w++ = '"';
	*w++ = '0';
	*w++ = 'x';
	w = put_hex_digits(w, v);
	if (q)
		*w++ = '"';
	wr_end(b, w);
}

/**
 * ehd__json_bool() - append a boolean (unquoted)
 * @b: buffer
 * @v: the field's value as int32: Value8 and Value16 zero-extended,
 *     Value32 as is
 *
 * 0 gives false, 1 true, anything else the int32 in decimal (255, 61681,
 * -2147483648).
 */
void ehd__json_bool(struct ehd_buf *b, int32_t v)
{
	if (v == 0)
		ehd__buf_put(b, "false", 5);
	else if (v == 1)
		ehd__buf_put(b, "true", 4);
	else
		ehd__json_i64(b, v);
}

/* Linux errno names by value (asm-generic numbering), primary names only. */
static const char *const errno_names[] = {
	[1] = "EPERM", [2] = "ENOENT", [3] = "ESRCH", [4] = "EINTR",
	[5] = "EIO", [6] = "ENXIO", [7] = "E2BIG", [8] = "ENOEXEC",
	[9] = "EBADF", [10] = "ECHILD", [11] = "EAGAIN", [12] = "ENOMEM",
	[13] = "EACCES", [14] = "EFAULT", [15] = "ENOTBLK", [16] = "EBUSY",
	[17] = "EEXIST", [18] = "EXDEV", [19] = "ENODEV", [20] = "ENOTDIR",
	[21] = "EISDIR", [22] = "EINVAL", [23] = "ENFILE", [24] = "EMFILE",
	[25] = "ENOTTY", [26] = "ETXTBSY", [27] = "EFBIG", [28] = "ENOSPC",
	[29] = "ESPIPE", [30] = "EROFS", [31] = "EMLINK", [32] = "EPIPE",
	[33] = "EDOM", [34] = "ERANGE", [35] = "EDEADLK",
	[36] = "ENAMETOOLONG", [37] = "ENOLCK", [38] = "ENOSYS",
	[39] = "ENOTEMPTY", [40] = "ELOOP",
	/* 41: EWOULDBLOCK is EAGAIN */
	[42] = "ENOMSG", [43] = "EIDRM", [44] = "ECHRNG",
	[45] = "EL2NSYNC", [46] = "EL3HLT", [47] = "EL3RST",
	[48] = "ELNRNG", [49] = "EUNATCH", [50] = "ENOCSI",
	[51] = "EL2HLT", [52] = "EBADE", [53] = "EBADR", [54] = "EXFULL",
	[55] = "ENOANO", [56] = "EBADRQC", [57] = "EBADSLT",
	/* 58: EDEADLOCK is EDEADLK */
	[59] = "EBFONT", [60] = "ENOSTR", [61] = "ENODATA", [62] = "ETIME",
	[63] = "ENOSR", [64] = "ENONET", [65] = "ENOPKG", [66] = "EREMOTE",
	[67] = "ENOLINK", [68] = "EADV", [69] = "ESRMNT", [70] = "ECOMM",
	[71] = "EPROTO", [72] = "EMULTIHOP", [73] = "EDOTDOT",
	[74] = "EBADMSG", [75] = "EOVERFLOW", [76] = "ENOTUNIQ",
	[77] = "EBADFD", [78] = "EREMCHG", [79] = "ELIBACC",
	[80] = "ELIBBAD", [81] = "ELIBSCN", [82] = "ELIBMAX",
	[83] = "ELIBEXEC", [84] = "EILSEQ", [85] = "ERESTART",
	[86] = "ESTRPIPE", [87] = "EUSERS", [88] = "ENOTSOCK",
	[89] = "EDESTADDRREQ", [90] = "EMSGSIZE", [91] = "EPROTOTYPE",
	[92] = "ENOPROTOOPT", [93] = "EPROTONOSUPPORT",
	[94] = "ESOCKTNOSUPPORT", [95] = "EOPNOTSUPP",
	[96] = "EPFNOSUPPORT", [97] = "EAFNOSUPPORT", [98] = "EADDRINUSE",
	[99] = "EADDRNOTAVAIL", [100] = "ENETDOWN", [101] = "ENETUNREACH",
	[102] = "ENETRESET", [103] = "ECONNABORTED", [104] = "ECONNRESET",
	[105] = "ENOBUFS", [106] = "EISCONN", [107] = "ENOTCONN",
	[108] = "ESHUTDOWN", [109] = "ETOOMANYREFS", [110] = "ETIMEDOUT",
	[111] = "ECONNREFUSED", [112] = "EHOSTDOWN", [113] = "EHOSTUNREACH",
	[114] = "EALREADY", [115] = "EINPROGRESS", [116] = "ESTALE",
	[117] = "EUCLEAN", [118] = "ENOTNAM", [119] = "ENAVAIL",
	[120] = "EISNAM", [121] = "EREMOTEIO", [122] = "EDQUOT",
	[123] = "ENOMEDIUM", [124] = "EMEDIUMTYPE", [125] = "ECANCELED",
	[126] = "ENOKEY", [127] = "EKEYEXPIRED", [128] = "EKEYREVOKED",
	[129] = "EKEYREJECTED", [130] = "EOWNERDEAD",
	[131] = "ENOTRECOVERABLE", [132] = "ERFKILL", [133] = "EHWPOISON",
};

/**
 * ehd__errno_name() - the Linux name of an errno value
 * @v: value
 *
 * Return: "EPERM" .. "EHWPOISON" for the values 1..133 that have a primary
 * name, "ERRNO" for anything else (0, 41, 58, negative, > 133).
 */
const char *ehd__errno_name(int32_t v)
{
	const size_t n = sizeof(errno_names) / sizeof(errno_names[0]);

	if (v > 0 && (size_t)v < n && errno_names[v])
		return errno_names[v];
	return "ERRNO";
}

/**
 * ehd__json_errno() - append an errno value as "NAME(n)"
 * @b:     buffer
 * @v:     value (Value32)
 * @flags: EHD__JSON_QUOTE for "EPERM(1)", 0 for EPERM(1)
 *
 * NAME is ehd__errno_name(@v), n the value as signed decimal:
 * "ENOTRECOVERABLE(131)", "ERRNO(0)", "ERRNO(-2147483648)".
 */
void ehd__json_errno(struct ehd_buf *b, int32_t v, unsigned int flags)
{
	bool q = flags & EHD__JSON_QUOTE;
	const char *name = ehd__errno_name(v);
	size_t len = strlen(name);
	char *w = wr_begin(b, len + 16);

	if (!w)
		return;
	if (q)
		*w++ = '"';
	memcpy(w, name, len);
	w += len;
	*w++ = '(';
	w = put_i64(w, v);
	*w++ = ')';
	if (q)
		*w++ = '"';
	wr_end(b, w);
}

/* ---- time ------------------------------------------------------------- */

/* Floor division and its remainder (0 <= *rem < d) for d > 0. */
static int64_t div_floor(int64_t a, int64_t d, int64_t *rem)
{
	int64_t q = a / d, r = a % d;

	if (r < 0) {
		r += d;
		q--;
	}
	*rem = r;
	return q;
}

/**
 * ehd__json_time() - append seconds since 1970 as a UTC date and time
 * @b:     buffer
 * @t:     seconds since 1970-01-01T00:00:00 UTC (Value32 sign-extended)
 * @flags: EHD__JSON_QUOTE for "...", 0 for bare text
 *
 * Writes "yyyy-mm-ddThh:mm:ss" (no "Z") in the proleptic Gregorian
 * calendar, year with at least 4 digits ("%04d": 30828-09-14T02:48:05,
 * 1600-12-31T23:59:59, -001-...). The reference gets the fields from
 * glibc's gmtime_r(), which fails when year - 1900 does not fit in an int;
 * such times are written "TIME(t)", e.g. TIME(9000000000000000000). Years
 * above INT_MAX (when year - 1900 still fits) print wrapped to 32 bits as
 * the reference's int addition does.
 */
void ehd__json_time(struct ehd_buf *b, int64_t t, unsigned int flags)
{
	const char *q = flags & EHD__JSON_QUOTE ? "\"" : "";
	int64_t days, sod, z, era, doe, yoe, doy, mp, y;
	unsigned int d, m;

	days = div_floor(t, 86400, &sod);
	/* days since 0000-03-01, in 400-year eras of 146097 days */
	z = days + 719468;
	era = div_floor(z, 146097, &doe);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;	/* month from March: 0..11 */
	d = (unsigned int)(doy - (153 * mp + 2) / 5 + 1);
	m = (unsigned int)(mp < 10 ? mp + 3 : mp - 9);
	y = era * 400 + yoe + (m <= 2);

	if (y - 1900 < INT_MIN || y - 1900 > INT_MAX) {
		ehd__buf_printf(b, "%sTIME(%" PRId64 ")%s", q, t, q);
		return;
	}
	if (y >= 0 && y <= 9999) {
		/* The common case, without printf: it is on every event. */
		char *w = wr_begin(b, 21);

		if (!w)
			return;
		if (*q)
			*w++ = '"';
		w = put_digits(w, (unsigned int)y, 4);
		*w++ = '-';
		w = put_digits(w, m, 2);
		*w++ = '-';
		w = put_digits(w, d, 2);
		*w++ = 'T';
		w = put_digits(w, (unsigned int)(sod / 3600), 2);
		*w++ = ':';
		w = put_digits(w, (unsigned int)(sod / 60 % 60), 2);
		*w++ = ':';
		w = put_digits(w, (unsigned int)(sod % 60), 2);
		if (*q)
			*w++ = '"';
		wr_end(b, w);
		return;
	}
	ehd__buf_printf(b, "%s%04d-%02u-%02uT%02u:%02u:%02u%s", q,
			(int)(int32_t)(uint32_t)(uint64_t)y, m, d,
			(unsigned int)(sod / 3600),
			(unsigned int)(sod / 60 % 60),
			(unsigned int)(sod % 60), q);
}

/* ---- floating point --------------------------------------------------- */

/*
 * Shortest round-trip digits, by exact integer arithmetic (the free-format
 * method of Steele & White / Burger & Dybvig): value v = f * 2^e is scaled
 * to r / s, and m+ / m- are the distances to the midpoints between v and
 * its neighbours. Digits are produced until the remaining value is within
 * those bounds; the last digit is the closer of d and d + 1, as in Ryu and
 * std::to_chars. (An exact tie between the two cannot happen for binary
 * values; it would round to even.)
 *
 * Sizes: for doubles the numbers stay below 2^1090 (r for the largest
 * double times 10, or 2 * 10^324 for the smallest denormal), 35 limbs.
 */
#define BN_LIMBS 40

struct bn {
	int n;			/* limbs used, d[n - 1] != 0; 0 for 0 */
	uint32_t d[BN_LIMBS];
};

static void bn_set(struct bn *a, uint64_t v)
{
	a->n = 0;
	while (v) {
		a->d[a->n++] = (uint32_t)v;
		v >>= 32;
	}
}

static void bn_shl(struct bn *a, unsigned int bits)
{
	unsigned int limbs = bits / 32, sh = bits % 32;
	uint32_t carry = 0, v;
	int i;

	if (!a->n)
		return;
	if (sh) {
		for (i = 0; i < a->n; i++) {
			v = a->d[i];
			a->d[i] = v << sh | carry;
			carry = v >> (32 - sh);
		}
		if (carry)
			a->d[a->n++] = carry;
	}
	if (limbs) {
		memmove(a->d + limbs, a->d, (size_t)a->n * sizeof(a->d[0]));
		memset(a->d, 0, limbs * sizeof(a->d[0]));
		a->n += (int)limbs;
	}
}

static void bn_mul(struct bn *a, uint32_t m)
{
	uint64_t t, carry = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		t = (uint64_t)a->d[i] * m + carry;
		a->d[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry)
		a->d[a->n++] = (uint32_t)carry;
}

static void bn_mul_pow10(struct bn *a, int k)
{
	static const uint32_t p10[9] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000
	};

	for (; k >= 9; k -= 9)
		bn_mul(a, 1000000000);
	if (k)
		bn_mul(a, p10[k]);
}

static int bn_cmp(const struct bn *a, const struct bn *b)
{
	int i;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

/* r = a + b (r may be a or b) */
static void bn_add(struct bn *r, const struct bn *a, const struct bn *b)
{
	const struct bn *l = a->n >= b->n ? a : b, *s = l == a ? b : a;
	uint64_t t, carry = 0;
	int i, n = l->n;

	for (i = 0; i < n; i++) {
		t = (uint64_t)l->d[i] + (i < s->n ? s->d[i] : 0) + carry;
		r->d[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry)
		r->d[n++] = (uint32_t)carry;
	r->n = n;
}

/* a -= b, a >= b */
static void bn_sub(struct bn *a, const struct bn *b)
{
	int64_t t, borrow = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		t = (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
		borrow = t < 0;
		a->d[i] = (uint32_t)(t + (borrow << 32));
	}
	while (a->n && !a->d[a->n - 1])
		a->n--;
}

/* Compare a + b with c. */
static int bn_add_cmp(const struct bn *a, const struct bn *b,
		      const struct bn *c)
{
	struct bn t;

	bn_add(&t, a, b);
	return bn_cmp(&t, c);
}

/*
 * Shortest digits of f * 2^e (f > 0) that read back as the same value.
 * @lower_closer: f is a power of two above the smallest normal, so the
 * next smaller value is half as far as the next larger one. Ties at the
 * midpoints round to even f, so the bounds are inclusive when f is even.
 * Writes the digits (no leading zero) to @dig, returns their count and
 * sets *@kp so that the value is 0.d1d2...dn * 10^k.
 */
static int shortest_digits(uint64_t f, int e, bool lower_closer, char *dig,
			   int *kp)
{
	struct bn r, s, mp, mm, t;
	bool incl = !(f & 1), low, high;
	int k, n = 0, log2v, t10, c, d, sh = lower_closer;

	if (e >= 0) {
		bn_set(&r, f);
		bn_shl(&r, (unsigned int)(e + 1 + sh));
		bn_set(&s, 2u << sh);
		bn_set(&mp, 1);
		bn_shl(&mp, (unsigned int)(e + sh));
		bn_set(&mm, 1);
		bn_shl(&mm, (unsigned int)e);
	} else {
		bn_set(&r, f << (1 + sh));
		bn_set(&s, 1);
		bn_shl(&s, (unsigned int)(1 - e + sh));
		bn_set(&mp, 1u << sh);
		bn_set(&mm, 1);
	}

	/* k = floor(log10(v)) + 1, estimated from log2(v), fixed below */
	log2v = 63 - __builtin_clzll(f) + e;
	t10 = log2v * 78913;	/* log10(2) ~ 78913 / 2^18 */
	k = (t10 >= 0 ? t10 >> 18 : -((-t10 + 262143) >> 18)) + 1;
	if (k >= 0) {
		bn_mul_pow10(&s, k);
	} else {
		bn_mul_pow10(&r, -k);
		bn_mul_pow10(&mp, -k);
		bn_mul_pow10(&mm, -k);
	}
	/* want: high bound (r + m+) / s below 1, and not below 0.1 */
	for (;;) {
		c = bn_add_cmp(&r, &mp, &s);
		if (c > 0 || (c == 0 && incl)) {
			bn_mul(&s, 10);
			k++;
			continue;
		}
		bn_add(&t, &r, &mp);
		bn_mul(&t, 10);
		c = bn_cmp(&t, &s);
		if (c < 0 || (c == 0 && !incl)) {
			bn_mul(&r, 10);
			bn_mul(&mp, 10);
			bn_mul(&mm, 10);
			k--;
			continue;
		}
		break;
	}

	for (;;) {
		bn_mul(&r, 10);
		bn_mul(&mp, 10);
		bn_mul(&mm, 10);
		for (d = 0; bn_cmp(&r, &s) >= 0; d++)
			bn_sub(&r, &s);
		c = bn_cmp(&r, &mm);
		low = c < 0 || (c == 0 && incl);
		c = bn_add_cmp(&r, &mp, &s);
		high = c > 0 || (c == 0 && incl);
		if (!low && !high) {
			dig[n++] = (char)('0' + d);
			continue;
		}
		if (low && high) {
			c = bn_add_cmp(&r, &r, &s);
			if (c > 0 || (c == 0 && (d & 1)))
				d++;
		} else if (high) {
			d++;
		}
		dig[n++] = (char)('0' + d);
		break;
	}
	*kp = k;
	return n;
}

/*
 * Write shortest digits @dig (@n of them, value 0.dig * 10^k) like
 * std::to_chars(first, last, value): fixed notation unless scientific is
 * shorter ("%e" style: d[.ddd]e+XX, two exponent digits at least). A fixed
 * form that needs zeros after the digits is an integer that to_chars
 * writes exactly, so it is printed from @mag, the absolute value.
 */
static void put_shortest(struct ehd_buf *b, bool neg, const char *dig, int n,
			 int k, double mag)
{
	int x = k - 1, sci_len, fix_len, i;
	char *w;

	sci_len = n + (n > 1) + 2 + (x >= 100 || x <= -100 ? 3 : 2);
	if (x >= n - 1)
		fix_len = x + 1;
	else if (x >= 0)
		fix_len = n + 1;
	else
		fix_len = n + 1 - x;

	if (fix_len <= sci_len && x > n - 1) {
		ehd__buf_printf(b, "%s%.0f", neg ? "-" : "", mag);
		return;
	}
	w = wr_begin(b, (size_t)(sci_len > fix_len ? sci_len : fix_len) + 1);
	if (!w)
		return;
	if (neg)
		*w++ = '-';
	if (fix_len <= sci_len) {
		if (x < 0) {
			*w++ = '0';
			*w++ = '.';
			for (i = x + 1; i < 0; i++)
				*w++ = '0';
			memcpy(w, dig, (size_t)n);
			w += n;
		} else {
			memcpy(w, dig, (size_t)x + 1);
			w += x + 1;
			if (n > x + 1) {
				*w++ = '.';
				memcpy(w, dig + x + 1, (size_t)(n - x - 1));
				w += n - x - 1;
			}
		}
	} else {
		*w++ = dig[0];
		if (n > 1) {
			*w++ = '.';
			memcpy(w, dig + 1, (size_t)n - 1);
			w += n - 1;
		}
		*w++ = 'e';
		*w++ = x < 0 ? '-' : '+';
		if (x < 0)
			x = -x;
		if (x >= 100)
			*w++ = (char)('0' + x / 100);
		*w++ = (char)('0' + x / 10 % 10);
		*w++ = (char)('0' + x % 10);
	}
	wr_end(b, w);
}

/* "nan", "-nan", "inf", "-inf" as glibc's printf writes them. */
static void put_nonfinite(struct ehd_buf *b, bool neg, bool nan,
			  unsigned int flags)
{
	const char *q = flags & EHD__JSON_QUOTE ? "\"" : "";

	ehd__buf_printf(b, "%s%s%s%s", q, neg ? "-" : "", nan ? "nan" : "inf",
			q);
}

/*
 * An IEEE 754 binary number: its sign, @mbits bits of stored mantissa
 * @mant, biased exponent @bexp (@bmax for infinities and NaN, @bias the
 * bias); @mag its magnitude as a double.
 */
static void put_ieee(struct ehd_buf *b, bool neg, uint64_t mant,
		     unsigned int bexp, unsigned int bmax, int mbits, int bias,
		     double mag, unsigned int flags)
{
	char dig[24];
	int n, k;

	if (bexp == bmax) {
		put_nonfinite(b, neg, mant != 0, flags);
		return;
	}
	if (!bexp && !mant) {
		ehd__buf_puts(b, neg ? "-0" : "0");
		return;
	}
	if (bexp)
		n = shortest_digits(mant | UINT64_C(1) << mbits,
				    (int)bexp - bias - mbits, !mant && bexp > 1,
				    dig, &k);
	else
		n = shortest_digits(mant, 1 - bias - mbits, false, dig, &k);
	put_shortest(b, neg, dig, n, k, mag);
}

/**
 * ehd__json_float() - append a 32-bit float
 * @b:     buffer
 * @v:     value
 * @flags: EHD__JSON_QUOTE to quote non-finite values
 *
 * Finite values: the shortest text that reads back as the same float
 * (0.33333334, 3.14, 1e-45, -5.9903676e+29, 0, -0), fixed or scientific
 * notation like std::to_chars(); unquoted. NaN and infinities: nan, -nan,
 * inf, -inf (the sign bit gives the "-"), quoted with EHD__JSON_QUOTE.
 */
void ehd__json_float(struct ehd_buf *b, float v, unsigned int flags)
{
	uint32_t bits;

	memcpy(&bits, &v, sizeof(bits));
	put_ieee(b, bits >> 31, bits & 0x7fffff, bits >> 23 & 0xff, 0xff, 23,
		 127, v < 0 ? -(double)v : (double)v, flags);
}

/**
 * ehd__json_double() - append a 64-bit double
 * @b:     buffer
 * @v:     value
 * @flags: EHD__JSON_QUOTE to quote non-finite values
 *
 * Like ehd__json_float() with double precision: 0.3333333333333333, 6.28,
 * 5e-324, 1e+20, 123456789012345683968 (fixed integers are exact).
 */
void ehd__json_double(struct ehd_buf *b, double v, unsigned int flags)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	put_ieee(b, bits >> 63, bits & ((UINT64_C(1) << 52) - 1),
		 (unsigned int)(bits >> 52 & 0x7ff), 0x7ff, 52, 1023,
		 v < 0 ? -v : v, flags);
}

/* ---- bytes ------------------------------------------------------------ */

/**
 * ehd__json_hex_bytes() - append bytes as lowercase hex pairs
 * @b:     buffer
 * @p:     bytes
 * @size:  number of bytes (0 gives "")
 * @flags: EHD__JSON_QUOTE for "01 02 ff", 0 for 01 02 ff
 */
void ehd__json_hex_bytes(struct ehd_buf *b, const void *p, size_t size,
			 unsigned int flags)
{
	const unsigned char *s = p;
	bool q = flags & EHD__JSON_QUOTE;
	char *w = wr_begin(b, room(size, 3, 2));
	size_t i;

	if (!w)
		return;
	if (q)
		*w++ = '"';
	for (i = 0; i < size; i++) {
		if (i)
			*w++ = ' ';
		*w++ = hex_lower[s[i] >> 4];
		*w++ = hex_lower[s[i] & 0xf];
	}
	if (q)
		*w++ = '"';
	wr_end(b, w);
}

/**
 * ehd__json_uuid() - append 16 bytes as a UUID
 * @b:     buffer
 * @p16:   16 bytes, in the order they are written (network order)
 * @flags: EHD__JSON_QUOTE for "...", 0 for bare text
 *
 * Lowercase 8-4-4-4-12: "01020304-0506-0708-0102-030405060708".
 */
void ehd__json_uuid(struct ehd_buf *b, const void *p16, unsigned int flags)
{
	const unsigned char *s = p16;
	bool q = flags & EHD__JSON_QUOTE;
	char *w = wr_begin(b, 38);
	int i;

	if (!w)
		return;
	if (q)
		*w++ = '"';
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*w++ = '-';
		*w++ = hex_lower[s[i] >> 4];
		*w++ = hex_lower[s[i] & 0xf];
	}
	if (q)
		*w++ = '"';
	wr_end(b, w);
}

/**
 * ehd__json_port() - append a port number (unquoted)
 * @b:  buffer
 * @p2: 2 bytes in network (big-endian) order, whatever the event's order
 */
void ehd__json_port(struct ehd_buf *b, const void *p2)
{
	const unsigned char *s = p2;

	ehd__json_u64(b, (unsigned int)s[0] << 8 | s[1]);
}

/**
 * ehd__json_ipv4() - append an IPv4 address in dotted decimal
 * @b:     buffer
 * @p4:    4 bytes in network order
 * @flags: EHD__JSON_QUOTE for "127.0.0.1", 0 for bare text
 */
void ehd__json_ipv4(struct ehd_buf *b, const void *p4, unsigned int flags)
{
	const unsigned char *s = p4;
	const char *q = flags & EHD__JSON_QUOTE ? "\"" : "";

	ehd__buf_printf(b, "%s%u.%u.%u.%u%s", q, s[0], s[1], s[2], s[3], q);
}

/**
 * ehd__json_ipv6() - append an IPv6 address as inet_ntop() writes it
 * @b:     buffer
 * @p16:   16 bytes in network order
 * @flags: EHD__JSON_QUOTE for "::1", 0 for bare text
 *
 * Uses the C library's inet_ntop(AF_INET6), as the reference does on
 * Linux: lowercase, longest zero run as "::", IPv4-mapped and -compatible
 * forms with a dotted tail (glibc: "::ffff:1.2.3.4").
 */
void ehd__json_ipv6(struct ehd_buf *b, const void *p16, unsigned int flags)
{
	const char *q = flags & EHD__JSON_QUOTE ? "\"" : "";
	char text[INET6_ADDRSTRLEN];

	if (!inet_ntop(AF_INET6, p16, text, sizeof(text)))
		text[0] = 0;
	ehd__buf_printf(b, "%s%s%s", q, text, q);
}
