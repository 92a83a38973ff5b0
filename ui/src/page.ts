/** What the router gives a page: where to draw, the path's parameters, the query, and whether the page is still shown. */
export interface PageContext {
  main: HTMLElement;
  params: string[];
  query: URLSearchParams;
  /** False once the user navigated away: polling loops stop. */
  alive(): boolean;
}

export function title(ctx: PageContext, text: string, ...rest: (Node | string)[]): void {
  const h1 = document.createElement("h1");
  h1.tabIndex = -1;
  h1.append(text, ...rest);
  ctx.main.append(h1);
  document.title = `${text} · xigua`;
}
