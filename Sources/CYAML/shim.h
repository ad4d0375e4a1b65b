// The C boundary for libyaml: EnsignYAML is the only module that imports this.
#include <yaml.h>
