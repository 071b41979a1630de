/* MD5 (RFC 1321), written out here rather than asked of OpenSSL: a page
 * fingerprints every candidate block, and OpenSSL 3's EVP interface looked
 * the digest up again (EVP_MD_fetch) and went through its provider for
 * each one, about as many instructions as the hashing itself on
 * documentation pages (BENCHMARKS.md "Cutting toward the floor").
 * test_text checks the digests against OpenSSL's on random inputs. */
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "text_internal.h"

static inline uint32_t rotl(uint32_t x, unsigned c) { return (x << c) | (x >> (32 - c)); }

static inline uint32_t load32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define MD5_STEP(f, a, b, c, d, x, t, s) (a) = (b) + rotl((a) + f((b), (c), (d)) + (x) + (t), (s))
#define MD5_F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MD5_G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))

/* The compression function over n whole 64-byte blocks. */
static void md5_blocks(uint32_t st[4], const unsigned char *p, size_t n) {
  uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
  for (; n > 0; n--, p += 64) {
    uint32_t x[16];
    for (int i = 0; i < 16; i++) x[i] = load32(p + 4 * i);
    uint32_t aa = a, bb = b, cc = c, dd = d;
    MD5_STEP(MD5_F, a, b, c, d, x[0], 0xd76aa478, 7);
    MD5_STEP(MD5_F, d, a, b, c, x[1], 0xe8c7b756, 12);
    MD5_STEP(MD5_F, c, d, a, b, x[2], 0x242070db, 17);
    MD5_STEP(MD5_F, b, c, d, a, x[3], 0xc1bdceee, 22);
    MD5_STEP(MD5_F, a, b, c, d, x[4], 0xf57c0faf, 7);
    MD5_STEP(MD5_F, d, a, b, c, x[5], 0x4787c62a, 12);
    MD5_STEP(MD5_F, c, d, a, b, x[6], 0xa8304613, 17);
    MD5_STEP(MD5_F, b, c, d, a, x[7], 0xfd469501, 22);
    MD5_STEP(MD5_F, a, b, c, d, x[8], 0x698098d8, 7);
    MD5_STEP(MD5_F, d, a, b, c, x[9], 0x8b44f7af, 12);
    MD5_STEP(MD5_F, c, d, a, b, x[10], 0xffff5bb1, 17);
    MD5_STEP(MD5_F, b, c, d, a, x[11], 0x895cd7be, 22);
    MD5_STEP(MD5_F, a, b, c, d, x[12], 0x6b901122, 7);
    MD5_STEP(MD5_F, d, a, b, c, x[13], 0xfd987193, 12);
    MD5_STEP(MD5_F, c, d, a, b, x[14], 0xa679438e, 17);
    MD5_STEP(MD5_F, b, c, d, a, x[15], 0x49b40821, 22);
    MD5_STEP(MD5_G, a, b, c, d, x[1], 0xf61e2562, 5);
    MD5_STEP(MD5_G, d, a, b, c, x[6], 0xc040b340, 9);
    MD5_STEP(MD5_G, c, d, a, b, x[11], 0x265e5a51, 14);
    MD5_STEP(MD5_G, b, c, d, a, x[0], 0xe9b6c7aa, 20);
    MD5_STEP(MD5_G, a, b, c, d, x[5], 0xd62f105d, 5);
    MD5_STEP(MD5_G, d, a, b, c, x[10], 0x02441453, 9);
    MD5_STEP(MD5_G, c, d, a, b, x[15], 0xd8a1e681, 14);
    MD5_STEP(MD5_G, b, c, d, a, x[4], 0xe7d3fbc8, 20);
    MD5_STEP(MD5_G, a, b, c, d, x[9], 0x21e1cde6, 5);
    MD5_STEP(MD5_G, d, a, b, c, x[14], 0xc33707d6, 9);
    MD5_STEP(MD5_G, c, d, a, b, x[3], 0xf4d50d87, 14);
    MD5_STEP(MD5_G, b, c, d, a, x[8], 0x455a14ed, 20);
    MD5_STEP(MD5_G, a, b, c, d, x[13], 0xa9e3e905, 5);
    MD5_STEP(MD5_G, d, a, b, c, x[2], 0xfcefa3f8, 9);
    MD5_STEP(MD5_G, c, d, a, b, x[7], 0x676f02d9, 14);
    MD5_STEP(MD5_G, b, c, d, a, x[12], 0x8d2a4c8a, 20);
    MD5_STEP(MD5_H, a, b, c, d, x[5], 0xfffa3942, 4);
    MD5_STEP(MD5_H, d, a, b, c, x[8], 0x8771f681, 11);
    MD5_STEP(MD5_H, c, d, a, b, x[11], 0x6d9d6122, 16);
    MD5_STEP(MD5_H, b, c, d, a, x[14], 0xfde5380c, 23);
    MD5_STEP(MD5_H, a, b, c, d, x[1], 0xa4beea44, 4);
    MD5_STEP(MD5_H, d, a, b, c, x[4], 0x4bdecfa9, 11);
    MD5_STEP(MD5_H, c, d, a, b, x[7], 0xf6bb4b60, 16);
    MD5_STEP(MD5_H, b, c, d, a, x[10], 0xbebfbc70, 23);
    MD5_STEP(MD5_H, a, b, c, d, x[13], 0x289b7ec6, 4);
    MD5_STEP(MD5_H, d, a, b, c, x[0], 0xeaa127fa, 11);
    MD5_STEP(MD5_H, c, d, a, b, x[3], 0xd4ef3085, 16);
    MD5_STEP(MD5_H, b, c, d, a, x[6], 0x04881d05, 23);
    MD5_STEP(MD5_H, a, b, c, d, x[9], 0xd9d4d039, 4);
    MD5_STEP(MD5_H, d, a, b, c, x[12], 0xe6db99e5, 11);
    MD5_STEP(MD5_H, c, d, a, b, x[15], 0x1fa27cf8, 16);
    MD5_STEP(MD5_H, b, c, d, a, x[2], 0xc4ac5665, 23);
    MD5_STEP(MD5_I, a, b, c, d, x[0], 0xf4292244, 6);
    MD5_STEP(MD5_I, d, a, b, c, x[7], 0x432aff97, 10);
    MD5_STEP(MD5_I, c, d, a, b, x[14], 0xab9423a7, 15);
    MD5_STEP(MD5_I, b, c, d, a, x[5], 0xfc93a039, 21);
    MD5_STEP(MD5_I, a, b, c, d, x[12], 0x655b59c3, 6);
    MD5_STEP(MD5_I, d, a, b, c, x[3], 0x8f0ccc92, 10);
    MD5_STEP(MD5_I, c, d, a, b, x[10], 0xffeff47d, 15);
    MD5_STEP(MD5_I, b, c, d, a, x[1], 0x85845dd1, 21);
    MD5_STEP(MD5_I, a, b, c, d, x[8], 0x6fa87e4f, 6);
    MD5_STEP(MD5_I, d, a, b, c, x[15], 0xfe2ce6e0, 10);
    MD5_STEP(MD5_I, c, d, a, b, x[6], 0xa3014314, 15);
    MD5_STEP(MD5_I, b, c, d, a, x[13], 0x4e0811a1, 21);
    MD5_STEP(MD5_I, a, b, c, d, x[4], 0xf7537e82, 6);
    MD5_STEP(MD5_I, d, a, b, c, x[11], 0xbd3af235, 10);
    MD5_STEP(MD5_I, c, d, a, b, x[2], 0x2ad7d2bb, 15);
    MD5_STEP(MD5_I, b, c, d, a, x[9], 0xeb86d391, 21);
    a += aa;
    b += bb;
    c += cc;
    d += dd;
  }
  st[0] = a;
  st[1] = b;
  st[2] = c;
  st[3] = d;
}

void tbk_md5_init(tbk_md5_state *m) {
  m->h[0] = 0x67452301;
  m->h[1] = 0xefcdab89;
  m->h[2] = 0x98badcfe;
  m->h[3] = 0x10325476;
  m->len = 0;
}

void tbk_md5_update(tbk_md5_state *m, const void *data, size_t n) {
  const unsigned char *p = data;
  size_t have = (size_t)(m->len % 64);
  m->len += n;
  if (have) {
    size_t take = 64 - have < n ? 64 - have : n;
    memcpy(m->buf + have, p, take);
    p += take;
    n -= take;
    if (have + take < 64) return;
    md5_blocks(m->h, m->buf, 1);
  }
  md5_blocks(m->h, p, n / 64);
  p += n / 64 * 64;
  memcpy(m->buf, p, n % 64);
}

void tbk_md5_final(const tbk_md5_state *in, unsigned char out[16]) {
  tbk_md5_state m = *in; /* the state stays usable: nested blocks share prefixes */
  size_t have = (size_t)(m.len % 64);
  uint64_t bits = m.len * 8;
  m.buf[have++] = 0x80;
  if (have > 56) {
    memset(m.buf + have, 0, 64 - have);
    md5_blocks(m.h, m.buf, 1);
    have = 0;
  }
  memset(m.buf + have, 0, 56 - have);
  for (int i = 0; i < 8; i++) m.buf[56 + i] = (unsigned char)(bits >> (8 * i));
  md5_blocks(m.h, m.buf, 1);
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 4; k++) out[4 * i + k] = (unsigned char)(m.h[i] >> (8 * k));
}

void tbk_md5(const void *data, size_t n, unsigned char out[16]) {
  tbk_md5_state m;
  tbk_md5_init(&m);
  tbk_md5_update(&m, data, n);
  tbk_md5_final(&m, out);
}

struct tbk_md5_ctx {
  tbk_md5_state m;
};
tbk_md5_ctx *tbk_md5_ctx_new(void) { return malloc(sizeof(tbk_md5_ctx)); }
void tbk_md5_ctx_free(tbk_md5_ctx *c) { free(c); }
void tbk_md5_with(tbk_md5_ctx *c, const void *data, size_t n, unsigned char out[16]) {
  tbk_md5_init(&c->m);
  tbk_md5_update(&c->m, data, n);
  tbk_md5_final(&c->m, out);
}

void tbk_md5_hex(const unsigned char md5[16], char hex[33]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < 16; i++) {
    hex[2 * i] = digits[md5[i] >> 4];
    hex[2 * i + 1] = digits[md5[i] & 15];
  }
  hex[32] = '\0';
}
