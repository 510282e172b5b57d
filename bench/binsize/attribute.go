package main

import (
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"sort"
	"strings"
)

// share is the bytes of code and data one module (or "std", "runtime
// tables") holds in a binary.
type share struct {
	Module string
	Bytes  int64
}

// modulesOf sums the sizes of a binary's symbols per module: a symbol
// counts when its section is stored in the file (so the 32 MiB of
// zeroed FIPS DRBG memory and other BSS do not), and belongs to the
// longest module path its package starts with.
func modulesOf(path string) ([]share, int64, error) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	mods := []string{bi.Main.Path}
	for _, d := range bi.Deps {
		mods = append(mods, d.Path)
	}
	f, err := elf.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: symbols: %w", path, err)
	}
	sums := map[string]int64{}
	var total int64
	for _, s := range syms {
		if !stored(f, s) {
			continue
		}
		sums[moduleOf(s.Name, mods)] += int64(s.Size)
		total += int64(s.Size)
	}
	return sorted(sums), total, nil
}

// stored tells whether a symbol's bytes are in the file: in an allocated
// section with contents (not BSS).
func stored(f *elf.File, s elf.Symbol) bool {
	if s.Size == 0 || int(s.Section) <= 0 || int(s.Section) >= len(f.Sections) {
		return false
	}
	sec := f.Sections[s.Section]
	return sec.Type == elf.SHT_PROGBITS && sec.Flags&elf.SHF_ALLOC != 0
}

// moduleOf names the module a Go symbol belongs to: the longest of mods
// its package path starts with, "std" for the standard library and
// "runtime tables" for the linker's own symbols (go:func.*, pclntab
// headers, type links).
func moduleOf(sym string, mods []string) string {
	name := strings.TrimLeft(strings.TrimPrefix(sym, "type:"), "*")
	for _, p := range []string{"go:itab.", "go:string."} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			name = strings.TrimLeft(rest, "*")
		}
	}
	best := ""
	for _, m := range mods {
		if len(m) > len(best) && strings.HasPrefix(name, m) && (len(name) == len(m) || strings.ContainsRune("./", rune(name[len(m)]))) {
			best = m
		}
	}
	switch {
	case best != "":
		return best
	case strings.HasPrefix(name, "go:") || !strings.ContainsAny(name, "./"):
		return "runtime tables"
	}
	return "std"
}

// sorted orders module shares largest first, then by name.
func sorted(sums map[string]int64) []share {
	out := make([]share, 0, len(sums))
	for m, b := range sums {
		out = append(out, share{m, b})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		return out[i].Module < out[j].Module
	})
	return out
}
