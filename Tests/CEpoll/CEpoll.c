// Nothing to compile: the module is its header.
#include "CEpoll.h"
