package k6

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

func TestZZProbe(t *testing.T) {
	files, _ := filepath.Glob("../testdata/k6/examples/*.js")
	sort.Strings(files)
	conv := 0
	for _, f := range files {
		src, _ := os.ReadFile(f)
		tst, err := Import(src, filepath.Base(f))
		if err != nil {
			fmt.Printf("REFUSED %s: %v\n", filepath.Base(f), err)
			continue
		}
		_, err = importer.Render(tst, "t.yaml")
		if err != nil {
			fmt.Printf("INVALID %s: %v\n", filepath.Base(f), err)
			continue
		}
		conv++
		fmt.Printf("OK %s\n    %s\n", filepath.Base(f), strings.Join(tst.NotConverted, "\n    "))
	}
	fmt.Println("converted", conv, "of", len(files))
}
