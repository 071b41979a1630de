/* MD5 fingerprints through OpenSSL. A page fingerprints every candidate
 * block, so the digest is fetched from the provider once per process
 * (EVP_md5() per call made OpenSSL 3 look it up again every time: about
 * as many instructions as the hashing itself on documentation pages), and
 * the block finder reuses one context per page (tbk_md5_with). */
#include <pthread.h>
#include <string.h>

#include <openssl/evp.h>

#include "text.h"
#include "text_internal.h"

static EVP_MD *md5_md;
static pthread_once_t md5_once = PTHREAD_ONCE_INIT;

/* Never freed: one small object for the process's life, still reachable. */
static void md5_fetch(void) { md5_md = EVP_MD_fetch(NULL, "MD5", NULL); }

static const EVP_MD *md5(void) {
  pthread_once(&md5_once, md5_fetch);
  return md5_md;
}

/* A digest that cannot be computed (MD5 unavailable, e.g. a FIPS-only
 * OpenSSL configuration) is all zeros, as it always was. */
void tbk_md5(const void *data, size_t n, unsigned char out[16]) {
  unsigned int len = 16;
  const EVP_MD *m = md5();
  if (!m || !EVP_Digest(data, n, out, &len, m, NULL)) memset(out, 0, 16);
}

tbk_md5_ctx *tbk_md5_ctx_new(void) { return EVP_MD_CTX_new(); }
void tbk_md5_ctx_free(tbk_md5_ctx *c) { EVP_MD_CTX_free(c); }

void tbk_md5_with(tbk_md5_ctx *c, const void *data, size_t n, unsigned char out[16]) {
  unsigned int len = 16;
  const EVP_MD *m = md5();
  if (!m || !EVP_DigestInit_ex2(c, m, NULL) || !EVP_DigestUpdate(c, data, n) || !EVP_DigestFinal_ex(c, out, &len))
    memset(out, 0, 16);
}

void tbk_md5_hex(const unsigned char md5[16], char hex[33]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < 16; i++) {
    hex[2 * i] = digits[md5[i] >> 4];
    hex[2 * i + 1] = digits[md5[i] & 15];
  }
  hex[32] = '\0';
}
