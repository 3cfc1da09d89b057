# The Cortex-M firmware helpers of scripts/test.d/30-ffi.sh, which sources this file after setting
# what they read: out (the step's directory), target_dir, fw (ffi/firmware), fw_cflags,
# fw_ldflags and big_ld (the MPS2 board's linker script).

# staticlib TARGET [FEATURES] [PROFILE]: builds the archive and prints the path of a copy named
# after the target, features and profile (each build overwrites Cargo's own output). FEATURES is
# "default", "default,EXTRA" (the default build plus EXTRA) or a list for --no-default-features.
staticlib() {
  local target=$1 features=${2:-default} profile=${3:-release}
  local args=(-q -p seeded-backoff-ffi --target "$target")
  [ "$profile" = release ] && args+=(--release)
  case $features in
    default) ;;
    default,*) args+=(--features "${features#default,}") ;;
    *) args+=(--no-default-features --features "$features") ;;
  esac
  # The plain bare-metal build, but for the warning about the cdylib crate type, which a
  # bare-metal target cannot produce.
  cargo build "${args[@]}" 2>&1 | grep -v "dropping unsupported crate type .cdylib." >&2 || true
  # The file keeps its name: the size report finds the library's parts in the map by it.
  # The directory is named by the features, or by their checksum where the list would pass the
  # 255 bytes a file name may have.
  local copy name
  name=$(tr ',' '+' <<<"$features")
  [ "${#name}" -le 160 ] || name="features-$(cksum <<<"$features" | cut -d' ' -f1)"
  copy="$out/libs/$target-$profile-${RUSTFLAGS:+$(tr -dc 'a-z0-9' <<<"$RUSTFLAGS")-}$name"
  mkdir -p "$copy"
  cp "$target_dir/$target/$profile/libseeded_backoff_ffi.a" "$copy/"
  echo "$copy/libseeded_backoff_ffi.a"
}

# firmware NAME CPU ARCHIVE MAIN [EXTRA_SOURCES...]: links NAME.elf with a map file.
# A vectors firmware (MAIN is main_vectors.c) links for the MPS2 board.
firmware() {
  local name=$1 cpu=$2 archive=$3 main=$4 ldflags=("${fw_ldflags[@]}")
  shift 4
  [ "$(basename "$main")" != main_vectors.c ] || ldflags=("${fw_ldflags[@]/#$fw\/lm3s6965.ld/$big_ld}")
  arm-none-eabi-gcc -mcpu="$cpu" -mthumb "${fw_cflags[@]}" -I "$out" "$fw/startup.c" \
    "$fw/semihosting.c" "$main" "$@" "${ldflags[@]}" -Wl,-Map="$out/$name.map" "$archive" \
    -o "$out/$name.elf"
}

# run_qemu ELF LOG [BOARD]: runs the firmware on BOARD (lm3s6965evb; mps2-an385 for a vectors
# firmware); its semihosting output goes to LOG and is printed.
run_qemu() {
  local rc=0
  timeout 120 qemu-system-arm -M "${3:-lm3s6965evb}" -nographic -monitor none -serial none \
    -chardev file,id=semihosting,path="$2" \
    -semihosting-config enable=on,target=native,chardev=semihosting -kernel "$1" 2>"$2.stderr" ||
    rc=$?
  cat "$2"
  return $rc
}

# runtime_link ARCHIVE NAME: links main_runtime.c (memcpy, sqrtf, a 64-bit division) and prints
# where each of those was defined, one "symbol archive(member)" line each.
runtime_link() {
  # The library before -lm, the order of a link line that names the firmware's libraries last.
  arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb "${fw_cflags[@]}" "$fw/startup.c" "$fw/semihosting.c" \
    "$fw/main_runtime.c" "${fw_ldflags[@]}" "$1" -lm -Wl,--trace-symbol=memcpy \
    -Wl,--trace-symbol=sqrtf -Wl,--trace-symbol=__aeabi_uldivmod -o "$out/$2.elf" 2>&1 |
    sed -n 's|.*/\([^/]*(.*)\): definition of \(.*\)|\2 \1|p' | sort
}
