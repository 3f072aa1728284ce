/* SPDX-License-Identifier: GPL-2.0-or-later */
/* png_write.c -- the smallest PNG that viewers accept: a signature, IHDR
 * (8-bit truecolour), one IDAT of the zlib-compressed rows (each with
 * filter type 0) and IEND, every chunk with its CRC-32. */
#include "png_write.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void put32(unsigned char *p, unsigned long v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static int chunk(FILE *out, const char type[4], const unsigned char *data, size_t len)
{
    unsigned char head[8], tail[4];
    put32(head, (unsigned long)len);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (len)
        crc = crc32(crc, data, (uInt)len);
    put32(tail, crc);
    return fwrite(head, 1, 8, out) == 8 && (len == 0 || fwrite(data, 1, len, out) == len) &&
                   fwrite(tail, 1, 4, out) == 4
               ? 0
               : -1;
}

int png_write(FILE *out, const unsigned char *rgb, int width, int height)
{
    static const unsigned char signature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    size_t row = 3 * (size_t)width, raw_len = (row + 1) * (size_t)height;
    unsigned char *raw = malloc(raw_len);
    uLongf packed_len = compressBound((uLong)raw_len);
    unsigned char *packed = malloc(packed_len);
    int rc = -1;
    if (raw && packed) {
        for (int y = 0; y < height; y++) {
            raw[y * (row + 1)] = 0; /* filter: none */
            memcpy(raw + y * (row + 1) + 1, rgb + y * row, row);
        }
        unsigned char ihdr[13];
        put32(ihdr, (unsigned long)width);
        put32(ihdr + 4, (unsigned long)height);
        ihdr[8] = 8;  /* bits per channel   */
        ihdr[9] = 2;  /* truecolour         */
        ihdr[10] = 0; /* deflate            */
        ihdr[11] = 0; /* adaptive filtering */
        ihdr[12] = 0; /* no interlace       */
        if (compress2(packed, &packed_len, raw, (uLong)raw_len, 6) == Z_OK &&
            fwrite(signature, 1, 8, out) == 8 && chunk(out, "IHDR", ihdr, 13) == 0 &&
            chunk(out, "IDAT", packed, packed_len) == 0 && chunk(out, "IEND", NULL, 0) == 0)
            rc = 0;
    }
    free(raw);
    free(packed);
    return rc;
}
