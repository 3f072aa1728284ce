/* SPDX-License-Identifier: GPL-2.0-or-later */
/* png_write.h -- an 8-bit RGB image as a PNG file (zlib for the
 * compression and the checksums). */
#ifndef COREPCG_PNG_WRITE_H
#define COREPCG_PNG_WRITE_H

#include <stdio.h>

/* rgb: height rows of 3 width bytes. 0, or -1 on a write or memory error. */
int png_write(FILE *out, const unsigned char *rgb, int width, int height);

#endif
