// epoll(7) for LoopbackLoad: Swift's Glibc module leaves <sys/epoll.h> out.
#ifndef ENSIGN_CEPOLL_H
#define ENSIGN_CEPOLL_H
#ifdef __linux__
#include <sys/epoll.h>
#endif
#endif
