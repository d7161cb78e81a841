package codemode_test

import (
	"context"
	"fmt"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
)

func Example() {
	fns := []codemode.Function{{Server: "math", Tool: "add", Description: "Adds a and b."}}
	add := func(_ context.Context, c codemode.Call) (any, error) {
		return map[string]any{"sum": c.Args["a"].(float64) + c.Args["b"].(float64)}, nil
	}
	script := `
let total = 0;
for (const n of [1, 2, 3]) total = (await tools.math.add({a: total, b: n})).sum;
console.log("added", 3, "numbers");
return {total};
`
	res, err := codemode.Run(context.Background(), script, fns, codemode.Limits{}, add, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res.Value), res.Logs, res.Calls)
	// Output:
	// {"total":6} [added 3 numbers] 3
}
