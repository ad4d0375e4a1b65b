// libcurl's C API for EnsignHTTP, and the calls Swift cannot make directly: curl_easy_setopt
// and curl_easy_getinfo are variadic, so each argument type gets a typed wrapper.
#ifndef ENSIGN_CCURL_SHIM_H
#define ENSIGN_CCURL_SHIM_H

#include <curl/curl.h>

/// A libcurl data callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
typedef size_t (*ensign_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ensign_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ensign_curl_set_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ensign_curl_set_size(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ensign_curl_set_callback(CURL *easy, CURLoption option, ensign_curl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

static inline CURLcode ensign_curl_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

/// The value a data callback returns to stop the transfer (CURL_WRITEFUNC_ERROR is newer
/// than Debian 12's libcurl; any count other than the one given stops it).
static const size_t ensign_curl_stop = 0;

#endif
