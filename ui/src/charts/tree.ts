/**
 * A decision tree (GET /v1/models/{id}/explain's `tree`) drawn as an SVG diagram, as
 * scikit-learn's plot_tree does: one box per node (split or leaf, samples, class
 * distribution), edges labelled with the branch condition. A node is focusable: click or
 * Enter selects it (onSelect shows its candidates), double-click or the "c" key collapses it.
 */
import { fmt, s } from "../dom.js";
import type { TreeNode } from "../types.js";

const BOX_W = 132;
const BOX_H = 48;
const GAP_X = 14;
const LEVEL_H = 92;
const BIG_TREE = 63;
const OPEN_DEPTH = 4;

export function conditionText(when: TreeNode["children"][number]["when"]): string {
  if (when.equals !== undefined) return `= ${when.equals}`;
  if (when.lte !== undefined) return `≤ ${fmt(when.lte, 3)}`;
  if (when.gt !== undefined) return `> ${fmt(when.gt, 3)}`;
  if (when.missing) return "missing";
  return JSON.stringify(when);
}

function distributionText(node: TreeNode): string {
  if (node.distribution) return Object.entries(node.distribution).map(([c, w]) => `${c}:${fmt(w, 1)}`).join(" ");
  return node.value !== undefined ? `value ${fmt(node.value, 3)}` : "";
}

interface Placed {
  node: TreeNode;
  path: string;
  depth: number;
  x: number;
  y: number;
}

export interface TreeDiagram {
  el: HTMLElement;
  /** Collapse or expand the node at `path` ("r", "r.0", "r.0.2", …). */
  toggle(path: string): void;
}

export function treeDiagram(root: TreeNode, onSelect: (node: TreeNode, path: string) => void): TreeDiagram {
  const collapsed = new Set<string>();
  // A big tree opens OPEN_DEPTH levels deep; the user expands the rest node by node.
  let count = 0;
  const walk = (node: TreeNode) => {
    count++;
    node.children.forEach((c) => walk(c.node));
  };
  walk(root);
  if (count > BIG_TREE) {
    const cut = (node: TreeNode, path: string, depth: number) => {
      if (node.children.length === 0) return;
      if (depth >= OPEN_DEPTH) collapsed.add(path);
      else node.children.forEach((c, i) => cut(c.node, `${path}.${i}`, depth + 1));
    };
    cut(root, "r", 0);
  }
  const holder = document.createElement("div");
  holder.className = "tree-scroll";
  let selected = "r";

  function layout(): { placed: Placed[]; edges: [Placed, Placed, string][]; width: number; height: number } {
    const placed: Placed[] = [];
    const edges: [Placed, Placed, string][] = [];
    let nextLeafX = 0;
    let maxDepth = 0;
    // Leaves take the next slot left to right; a parent sits over the middle of its children.
    const place = (node: TreeNode, path: string, depth: number): Placed => {
      maxDepth = Math.max(maxDepth, depth);
      const open = node.children.length > 0 && !collapsed.has(path);
      const me: Placed = { node, path, depth, x: 0, y: depth * LEVEL_H + 8 };
      placed.push(me);
      if (!open) {
        me.x = nextLeafX;
        nextLeafX += BOX_W + GAP_X;
        return me;
      }
      const kids = node.children.map((c, i) => {
        const kid = place(c.node, `${path}.${i}`, depth + 1);
        edges.push([me, kid, conditionText(c.when)]);
        return kid;
      });
      me.x = (kids[0].x + kids[kids.length - 1].x) / 2;
      return me;
    };
    place(root, "r", 0);
    return { placed, edges, width: Math.max(nextLeafX, BOX_W) + 8, height: (maxDepth + 1) * LEVEL_H };
  }

  function nodeAt(path: string): TreeNode {
    let node = root;
    for (const i of path.split(".").slice(1)) node = node.children[Number(i)].node;
    return node;
  }

  function toggle(path: string): void {
    if (nodeAt(path).children.length === 0) return;
    if (collapsed.has(path)) collapsed.delete(path);
    else collapsed.add(path);
    draw(path);
  }

  function draw(focusPath?: string): void {
    const { placed, edges, width, height } = layout();
    const svg = s("svg", { class: "chart tree-diagram", viewBox: `-4 0 ${width} ${height}`, width, height, role: "group", "aria-label": "Decision tree" });
    for (const [from, to, label] of edges) {
      const x1 = from.x + BOX_W / 2, y1 = from.y + BOX_H, x2 = to.x + BOX_W / 2, y2 = to.y;
      svg.append(s("path", { d: `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`, class: "edge" }));
      svg.append(s("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 + 4, "text-anchor": "middle", class: "edge-label" }, label));
    }
    for (const p of placed) {
      const { node } = p;
      const isCollapsed = collapsed.has(p.path);
      const title = node.split ? `${node.split.feature}${node.split.threshold !== undefined ? ` ≤ ${fmt(node.split.threshold, 3)}?` : "?"}` : `→ ${node.prediction}`;
      const g = s(
        "g",
        {
          class: `node${node.split ? " split" : " leaf"}${p.path === selected ? " selected" : ""}${isCollapsed ? " collapsed" : ""}`,
          transform: `translate(${p.x},${p.y})`,
          tabindex: 0,
          role: "button",
          "data-depth": p.depth,
          "data-path": p.path,
          "aria-label": `${title}, ${fmt(node.samples, 1)} samples${isCollapsed ? ", collapsed" : ""}`,
        },
        // Hover: the first candidates at this node, as explain lists them (the side panel shows them all on click).
        s("title", {}, node.split ? `${title}\n${node.split.candidates.slice(0, 5).map((c) => `${c.feature}: ${fmt(c.score, 3)}`).join("\n")}` : title),
        s("rect", { width: BOX_W, height: BOX_H, rx: 6 }),
        s("text", { x: BOX_W / 2, y: 17, "text-anchor": "middle", class: "node-title" }, title),
        s("text", { x: BOX_W / 2, y: 32, "text-anchor": "middle", class: "node-sub" }, `n=${fmt(node.samples, 1)}${node.split ? ` ${node.split.criterion} ${fmt(node.split.score, 3)}` : ""}`),
        s("text", { x: BOX_W / 2, y: 44, "text-anchor": "middle", class: "node-sub" }, distributionText(node)),
        isCollapsed ? s("text", { x: BOX_W - 6, y: 12, "text-anchor": "end", class: "node-more" }, "+") : null,
      );
      const select = () => {
        selected = p.path;
        svg.querySelectorAll(".node.selected").forEach((n) => n.classList.remove("selected"));
        g.classList.add("selected");
        onSelect(node, p.path);
      };
      g.addEventListener("click", select);
      g.addEventListener("dblclick", () => toggle(p.path));
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          select();
        } else if (e.key === "c") toggle(p.path);
      });
      svg.append(g);
    }
    holder.replaceChildren(svg);
    if (focusPath) (svg.querySelector(`[data-path="${focusPath}"]`) as SVGGElement | null)?.focus();
  }

  draw();
  // Wide trees scroll: start with the root in view.
  requestAnimationFrame(() => {
    const rootBox = holder.querySelector<SVGGElement>('[data-path="r"]');
    if (rootBox) holder.scrollLeft = Math.max(0, rootBox.getBoundingClientRect().left - holder.getBoundingClientRect().left - holder.clientWidth / 2 + BOX_W / 2);
  });
  return { el: holder, toggle };
}
