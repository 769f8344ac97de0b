/* SPDX-License-Identifier: MIT */
/*
 * gen.h - generators of the reference interceptor corpus, each writing its
 * providers' events through the interceptor backend ($EH_INTERCEPTOR_FILE).
 */
#ifndef GEN_H
#define GEN_H

#ifdef __cplusplus
extern "C" {
#endif

/* The long-name provider and TestProviderC (with its group). */
void gen_c(void);
/* TestProviderCpp (with its group), the header compiled as C++. */
void gen_cpp(void);

#ifdef __cplusplus
}
#endif

#endif /* GEN_H */
