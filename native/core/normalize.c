/* Spec 4.2: NFC from the pinned tables (UAX #15: decompose, reorder, compose), span by span: only
 * a run of unstable code points, with the stable one before it, can change (spec 4.4). */
#include <stdlib.h>
#include <string.h>

#include "core.h"

enum { S_BASE = 0xAC00, L_BASE = 0x1100, V_BASE = 0x1161, T_BASE = 0x11A7,
       L_COUNT = 19, V_COUNT = 21, T_COUNT = 28, N_COUNT = V_COUNT * T_COUNT, S_COUNT = L_COUNT * N_COUNT };


static int decompose_into(uint32_t cp, cpbuf *out, int depth) {
    uint32_t s = cp - S_BASE;
    if (cp >= S_BASE && s < S_COUNT) {
        if (cpbuf_push(out, L_BASE + s / N_COUNT) || cpbuf_push(out, V_BASE + (s % N_COUNT) / T_COUNT)) return -1;
        return s % T_COUNT ? cpbuf_push(out, T_BASE + s % T_COUNT) : 0;
    }
    const int32_t *d = depth < 32 ? ucd_nfc_decomposition(cp) : NULL; /* mappings nest a few deep */
    if (!d) return cpbuf_push(out, cp);
    if (decompose_into((uint32_t)d[1], out, depth + 1)) return -1;
    return d[2] >= 0 ? decompose_into((uint32_t)d[2], out, depth + 1) : 0;
}

static int64_t compose_pair(uint32_t first, uint32_t second) {
    if (first >= L_BASE && first < L_BASE + L_COUNT && second >= V_BASE && second < V_BASE + V_COUNT)
        return S_BASE + ((first - L_BASE) * V_COUNT + (second - V_BASE)) * T_COUNT;
    uint32_t s = first - S_BASE;
    if (first >= S_BASE && s < S_COUNT && s % T_COUNT == 0 && second > T_BASE && second < T_BASE + T_COUNT)
        return first + (second - T_BASE);
    return ucd_compose(first, second);
}

/* The canonical ordering of d[0:n] (a stable sort of each run of non-zero classes): insertion
 * for short runs, counting by class for long ones, so that a million marks sort in linear time. */
static int reorder(uint32_t *d, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (ucd_ccc(d[i]) == 0) { i++; continue; }
        size_t e = i + 1;
        while (e < n && ucd_ccc(d[e]) != 0) e++;
        if (e - i <= 32) {
            for (size_t k = i + 1; k < e; k++) {
                uint32_t c = d[k];
                int cc = ucd_ccc(c);
                size_t j = k;
                while (j > i && ucd_ccc(d[j - 1]) > cc) { d[j] = d[j - 1]; j--; }
                d[j] = c;
            }
        } else {
            size_t count[256] = {0}, at[256];
            uint32_t *sorted = core_realloc_array(NULL, e - i, sizeof *sorted);
            if (!sorted) return -1;
            for (size_t k = i; k < e; k++) count[ucd_ccc(d[k])]++;
            for (size_t c = 0, sum = 0; c < 256; c++) { at[c] = sum; sum += count[c]; }
            for (size_t k = i; k < e; k++) sorted[at[ucd_ccc(d[k])]++] = d[k];
            memcpy(d + i, sorted, (e - i) * sizeof *sorted);
            core_free(sorted);
        }
        i = e;
    }
    return 0;
}

/* Canonical composition of d[0:n], in place; returns the new length. */
static size_t compose(uint32_t *d, size_t n) {
    size_t out = 0, starter = SIZE_MAX;
    int last_class = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t c = d[k];
        int cc = ucd_ccc(c);
        if (starter != SIZE_MAX && (out - 1 == starter || (last_class != 0 && last_class < cc))) {
            int64_t p = compose_pair(d[starter], c);
            if (p >= 0) { d[starter] = (uint32_t)p; continue; }
        }
        if (cc == 0) starter = out;
        d[out++] = c;
        last_class = cc;
    }
    return out;
}

static int nfc_span(const uint32_t *span, size_t n, cpbuf *out, cpbuf *work) {
    work->len = 0;
    for (size_t k = 0; k < n; k++)
        if (decompose_into(span[k], work, 0)) return -1;
    if (reorder(work->data, work->len)) return -1;
    return cpbuf_extend(out, work->data, compose(work->data, work->len));
}

int nfc(const uint32_t *in, size_t n, cpbuf *out) {
    size_t first = 0;
    while (first < n && nfc_stable(in[first])) first++;
    if (first == n) return 1;
    cpbuf work;
    cpbuf_init(&work);
    size_t copied = 0, i = 0; /* in[0:copied] is in out */
    int failed = 0;
    while (i < n && !failed) {
        if (nfc_stable(in[i])) { i++; continue; }
        size_t e = i + 1, s = i > 0 ? i - 1 : i;
        while (e < n && !nfc_stable(in[e])) e++;
        failed = cpbuf_extend(out, in + copied, s - copied) || nfc_span(in + s, e - s, out, &work);
        copied = i = e;
    }
    cpbuf_free(&work);
    return failed ? -1 : cpbuf_extend(out, in + copied, n - copied);
}
