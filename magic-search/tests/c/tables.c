/* The one file that defines the exported tables (compiled as C or as C++). */
#define BLK_IMPLEMENTATION
#include "black.h"
#define CMB_IMPLEMENTATION
#include "combined.h"
#define PX_IMPLEMENTATION
#include "pext.h"
