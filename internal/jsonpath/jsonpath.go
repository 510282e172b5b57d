package jsonpath

// Path is a parsed JSON path. The zero value is the empty path.
type Path struct {
	src   string
	steps []step
}

// step is one member or index access of a path.
type step struct {
	name    string // the member name, when !isIndex
	index   int    // the element index, negative from the end, when isIndex
	isIndex bool
}
