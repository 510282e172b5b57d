package capacityrun

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/units"
)

// TestEveryFigureOfCapacityJSONHasItsUnit walks capacity.Result as
// capacity.json writes it: every time.Duration (nanoseconds, which
// Knee.P95's 43263000 did not say: issue 20) has an entry in Units.
func TestEveryFigureOfCapacityJSONHasItsUnit(t *testing.T) {
	have := capacityUnits(units.Unit{})
	var walk func(typ reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ == reflect.TypeFor[time.Duration]() {
			if have[path] == "" {
				t.Errorf("capacity.json's %s is a duration without a Units entry", path)
			}
			return
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != reflect.TypeFor[capacity.Result]().PkgPath() {
			return // units.Unit and the standard library's types hold no figure of the search
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			p := strings.TrimPrefix(path+"."+f.Name, ".")
			if f.Anonymous {
				p = path // an embedded struct's fields are its holder's in JSON
			}
			walk(f.Type, p)
		}
	}
	walk(reflect.TypeFor[capacity.Result](), "")
}
