/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay.c -- runs a fuzz target on committed inputs, so that the seed
 * corpus and every crash the fuzzer ever found run in the normal suite
 * (and under ASan/UBSan in build-sanitize). Arguments are files or
 * directories (every regular file in them). The target aborts on a broken
 * invariant; this program counts inputs and fails when there were none. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *more = realloc(buf, cap);
            if (!more) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = more;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    /* an exact-size copy, so that ASan sees a read past the input */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file in dir, in name order; returns how many or -1. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    int count = 0, cap = 0, ran = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            char **more = realloc(names, sizeof *names * (size_t)cap);
            if (!more)
                break;
            names = more;
        }
        names[count++] = strdup(e->d_name);
    }
    closedir(d);
    if (count > 0)
        qsort(names, (size_t)count, sizeof *names, compare_names);
    for (int k = 0; k < count; k++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(path) != 0)
                ran = -1;
            else if (ran >= 0)
                ran++;
        }
        free(names[k]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int k = 1; k < argc; k++) {
        struct stat st;
        if (stat(argv[k], &st) != 0) {
            perror(argv[k]);
            return 1;
        }
        int ran = S_ISDIR(st.st_mode) ? replay_dir(argv[k])
                                      : (replay_file(argv[k]) == 0 ? 1 : -1);
        if (ran < 0)
            return 1;
        printf("%s: %d inputs\n", argv[k], ran);
        total += ran;
    }
    printf("replayed %d inputs, every invariant held\n", total);
    return total > 0 ? 0 : 1;
}
