/* SPDX-License-Identifier: MIT */
/*
 * heph-read.h - the Heph trace reader (libehdecode, private; used through
 * ehdecode/reader.h)
 *
 * Packets are read one at a time and checked whole before their event is
 * given out: a packet that is damaged (bad magic, a size past the end of
 * the input, an attribute cut short, an unknown or untyped value type)
 * ends the input with -EBADMSG and says where and why. See
 * docs/heph.md for how packets become events.
 */
#ifndef EHD_HEPH_READ_H
#define EHD_HEPH_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ehd__heph;
struct ehd_event;
struct ehd_trace_info;

/* Do the first @n bytes start a Heph packet (metadata or event)? */
bool ehd__heph_is_heph(const uint8_t *h, size_t n);

/*
 * ehd__heph_open() - start reading @fd after the @npre bytes at @pre
 * (those already read to find the kind of input)
 * @size: the input's size when known (a regular file), else UINT64_MAX
 * Return: 0 or -ENOMEM.
 */
int ehd__heph_open(struct ehd__heph **hp, int fd, const uint8_t *pre,
		   size_t npre, uint64_t size);
void ehd__heph_free(struct ehd__heph *h);

/*
 * ehd__heph_set_strict() - refuse strings (descriptions, attribute names
 * and values) that are not well-formed UTF-8, as the format requires
 */
void ehd__heph_set_strict(struct ehd__heph *h);

/* 1 with an event (valid until the next call), 0 at the end, or < 0. */
int ehd__heph_next(struct ehd__heph *h, const struct ehd_event **ev);

/* Packets read so far (metadata and events). */
uint64_t ehd__heph_packets(const struct ehd__heph *h);

/* The epoch, once a metadata packet set it, as a clock offset. */
void ehd__heph_trace_info(const struct ehd__heph *h,
			  struct ehd_trace_info *info);

/* Why the last call failed, and where (input offset). */
const char *ehd__heph_error(const struct ehd__heph *h, uint64_t *offset);

#endif /* EHD_HEPH_READ_H */
