/* A main() for a fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on each file
 * named on the command line, and on each file of each folder named there. scripts/leakcheck.sh
 * links every target with it, unsanitized, and runs it under valgrind over the seeds (the vectors'
 * inputs and the corpora), the fuzzing corpus and the regressions. */
#define _DEFAULT_SOURCE /* opendir, for folders of inputs */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t replayed;

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    size_t cap = 1 << 16, n = 0, got;
    uint8_t *data = malloc(cap);
    while (data && (got = fread(data + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(data, cap * 2);
            if (!bigger) { free(data); data = NULL; break; }
            data = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!data) { fprintf(stderr, "%s: out of memory\n", path); return 1; }
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    replayed++;
    return 0;
}

static int run_path(const char *path) {
    DIR *dir = opendir(path);
    if (!dir) return run_file(path);
    int failed = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        size_t len = strlen(path) + strlen(entry->d_name) + 2;
        char *child = malloc(len);
        if (!child) { failed = 1; break; }
        snprintf(child, len, "%s/%s", path, entry->d_name);
        failed |= run_file(child);
        free(child);
    }
    closedir(dir);
    return failed;
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    int failed = 0;
    for (int k = 1; k < argc; k++) failed |= run_path(argv[k]);
    printf("replayed %zu inputs\n", replayed);
    return failed;
}
