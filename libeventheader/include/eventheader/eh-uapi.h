/* SPDX-License-Identifier: MIT */
/*
 * eh-uapi.h - the Linux user_events ioctl ABI (Linux 6.4 and later)
 *
 * Declared here, under private names, because C libraries' kernel headers
 * older than 6.4 (Debian 12 ships 6.1) have no <linux/user_events.h>. The
 * layout is the kernel's include/uapi/linux/user_events.h.
 */
#ifndef EVENTHEADER_EH_UAPI_H
#define EVENTHEADER_EH_UAPI_H

#include <stdint.h>
#include <sys/ioctl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Argument of EH__DIAG_IOCSREG (struct user_reg, 28 bytes). */
struct eh__user_reg {
	uint32_t size;		/* sizeof(struct eh__user_reg) */
	uint8_t enable_bit;	/* bit the kernel sets at enable_addr */
	uint8_t enable_size;	/* 4 or 8: size of the word at enable_addr */
	uint16_t flags;		/* EH__USER_EVENT_REG_* */
	uint64_t enable_addr;	/* address of the enable word */
	uint64_t name_args;	/* address of "Name field; field..." */
	uint32_t write_index;	/* out: the index to write in front */
} __attribute__((__packed__));

/* Argument of EH__DIAG_IOCSUNREG (struct user_unreg, 16 bytes). */
struct eh__user_unreg {
	uint32_t size;		/* sizeof(struct eh__user_unreg) */
	uint8_t disable_bit;	/* the enable_bit that was registered */
	uint8_t reserved;
	uint16_t reserved2;
	uint64_t disable_addr;	/* the enable_addr that was registered */
} __attribute__((__packed__));

/* Keep the event after its last registration is closed (CAP_PERFMON). */
#define EH__USER_EVENT_REG_PERSIST (1U << 0)

#define EH__DIAG_IOC_MAGIC '*'
#define EH__DIAG_IOCSREG _IOWR(EH__DIAG_IOC_MAGIC, 0, struct eh__user_reg *)
#define EH__DIAG_IOCSDEL _IOW(EH__DIAG_IOC_MAGIC, 1, char *)
#define EH__DIAG_IOCSUNREG _IOW(EH__DIAG_IOC_MAGIC, 2, struct eh__user_unreg *)

#ifdef __cplusplus
}
#endif

#endif /* EVENTHEADER_EH_UAPI_H */
