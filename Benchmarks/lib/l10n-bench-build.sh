# Sourced by the Localization benches (not run by bench.sh itself): builds a bench program with
# `swiftc -O` from Sources/Localization/*.swift plus its main file, with the CICUPlural shim
# compiled by clang and ICU linked.
# Usage: build_l10n_bench WORKDIR MODULE MAIN.swift OUTPUT
build_l10n_bench() {
    local work=$1 module=$2 main=$3 out=$4
    mkdir -p "$work/include"
    cp Sources/CICUPlural/include/CICUPlural.h "$work/include/"
    printf 'module CICUPlural {\n  header "CICUPlural.h"\n  export *\n}\n' > "$work/include/module.modulemap"
    clang -O2 -I Sources/CICUPlural/include -c Sources/CICUPlural/shim.c -o "$work/shim.o"
    swiftc -O -parse-as-library -module-name "$module" -I "$work/include" \
        Sources/Localization/*.swift "$main" "$work/shim.o" \
        -licui18n -licuuc -licudata -o "$out"
}
