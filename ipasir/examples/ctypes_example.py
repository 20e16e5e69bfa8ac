# grimoire from Python through ctypes: IPASIR (SAT with assumptions and a core) and IPAMIR
# (MaxSAT). Build the library with `cargo build --release -p grim-ipasir`, then run
# `python3 ipasir/examples/ctypes_example.py [path/to/libgrim_ipasir.so]`.
import ctypes, sys

lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "target/release/libgrim_ipasir.so")
lib.ipasir_signature.restype = ctypes.c_char_p
lib.ipasir_init.restype = ctypes.c_void_p
for name in ["ipasir_release", "ipasir_add", "ipasir_assume", "ipasir_solve", "ipasir_val",
             "ipasir_failed", "ipamir_release", "ipamir_add_hard", "ipamir_assume",
             "ipamir_solve", "ipamir_val_lit"]:
    getattr(lib, name).argtypes = [ctypes.c_void_p] + [ctypes.c_int] * (name not in
        ["ipasir_release", "ipasir_solve", "ipamir_release", "ipamir_solve"])
lib.ipamir_init.restype = ctypes.c_void_p
lib.ipamir_add_soft_lit.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_uint64]
lib.ipamir_val_obj.argtypes = [ctypes.c_void_p]
lib.ipamir_val_obj.restype = ctypes.c_uint64

print(lib.ipasir_signature().decode())
s = lib.ipasir_init()
for lit in [1, 2, 0, -1, 0]:                  # (x1 or x2) and not x1
    lib.ipasir_add(s, lit)
assert lib.ipasir_solve(s) == 10
print(f"SAT: x1 = {lib.ipasir_val(s, 1) > 0}, x2 = {lib.ipasir_val(s, 2) > 0}")
lib.ipasir_assume(s, -2)                      # assume not x2: unsatisfiable
assert lib.ipasir_solve(s) == 20
print(f"UNSAT, core: {[l for l in [-2] if lib.ipasir_failed(s, l)]}")
lib.ipasir_release(s)

m = lib.ipamir_init()
for lit in [1, 2, 0]:                         # hard: x1 or x2
    lib.ipamir_add_hard(m, lit)
lib.ipamir_add_soft_lit(m, 1, 3)              # x1 true costs 3
lib.ipamir_add_soft_lit(m, 2, 5)              # x2 true costs 5
assert lib.ipamir_solve(m) == 30              # 30: optimum found
print(f"optimum {lib.ipamir_val_obj(m)}: x1 = {lib.ipamir_val_lit(m, 1) > 0}")
lib.ipamir_release(m)
