/**
 * A `deno lint` plugin, run only by `deno task lint:shape` (never by `deno lint` itself): it
 * reports every function longer than the limit with its length, its name and the reason in a
 * `// long-function: <reason>` comment on the line directly above its declaration, if any.
 */

/** Functions longer than this many lines (first to last line) are reported. */
export const FUNCTION_LINE_LIMIT = 80;

const MARKER = /^\s*\/\/ long-function: (\S.*)$/;

type FunctionNode =
  | Deno.lint.FunctionDeclaration
  | Deno.lint.FunctionExpression
  | Deno.lint.ArrowFunctionExpression;

function parentOf(node: Deno.lint.Node): Deno.lint.Node | undefined {
  return (node as { parent?: Deno.lint.Node }).parent;
}

/** The node a reader sees as the declaration: the method, property, variable or export around the function. */
function declarationOf(node: FunctionNode): Deno.lint.Node {
  let current: Deno.lint.Node = node;
  for (;;) {
    const parent = parentOf(current);
    if (!parent) return current;
    switch (parent.type) {
      case "MethodDefinition":
      case "Property":
      case "PropertyDefinition":
      case "VariableDeclarator":
      case "VariableDeclaration":
      case "ExportNamedDeclaration":
      case "ExportDefaultDeclaration":
        current = parent;
        continue;
      default:
        return current;
    }
  }
}

function nameOf(node: FunctionNode, declaration: Deno.lint.Node): string {
  if ("id" in node && node.id) return node.id.name;
  const stop = parentOf(declaration);
  let current = parentOf(node);
  while (current && current !== stop) {
    if (current.type === "VariableDeclarator" && current.id.type === "Identifier") {
      return current.id.name;
    }
    if (
      (current.type === "MethodDefinition" || current.type === "Property" ||
        current.type === "PropertyDefinition") && current.key.type === "Identifier"
    ) {
      return current.key.name;
    }
    current = parentOf(current);
  }
  return "(anonymous)";
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const plugin: Deno.lint.Plugin = {
  name: "shape",
  rules: {
    "function-length": {
      create(context) {
        const text = context.sourceCode.text;
        const lines = text.split("\n");
        const visit = (node: FunctionNode) => {
          const declaration = declarationOf(node);
          const first = lineAt(text, declaration.range[0]);
          const length = lineAt(text, node.range[1]) - first + 1;
          if (length <= FUNCTION_LINE_LIMIT) return;
          const reason = MARKER.exec(lines[first - 2] ?? "")?.[1] ?? null;
          context.report({
            node: declaration,
            message: JSON.stringify({
              name: nameOf(node, declaration),
              line: first,
              length,
              reason,
            }),
          });
        };
        return {
          FunctionDeclaration: visit,
          FunctionExpression: visit,
          ArrowFunctionExpression: visit,
        };
      },
    },
  },
};

export default plugin;
