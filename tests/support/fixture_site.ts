/**
 * A small bakery site served from loopback for the import tests and bench:
 * tens of recipe pages sharing a header, navigation, cookie banner, a
 * repeated newsletter call to action and a footer; a sitemap; a robots.txt
 * forbidding /privado/; a noindex page; a redirect; a 404; a PDF; a page in
 * English; and, for the failure cases, an oversized page, invalid HTML, a
 * redirect loop and a sitemap index naming a missing sitemap. Pages can be
 * changed or removed while it runs.
 */

/** One answer of the site. */
export interface FixtureResponse {
  status?: number;
  headers?: Record<string, string>;
  body: string | Uint8Array;
}

/** The boilerplate every page carries: none of it may reach a passage. */
export const BOILERPLATE = [
  "Início Receitas Sobre nós Contato",
  "Usamos cookies para melhorar sua experiência de navegação. Aceitar todos",
  "Assine a newsletter da Padaria Aurora e receba receitas novas toda semana.",
  "© 2025 Padaria Aurora. Todos os direitos reservados. Rua das Laranjeiras, 42, Belo Horizonte.",
];

/** The recipes: [slug, name, distinctive ingredient]. */
export const RECIPES: Array<[string, string, string]> = [
  ["pao-de-queijo", "Pão de queijo", "polvilho azedo"],
  ["bolo-de-fuba", "Bolo de fubá", "fubá mimoso"],
  ["broa-de-milho", "Broa de milho", "erva-doce"],
  ["pao-frances", "Pão francês", "melhorador de farinha"],
  ["sonho", "Sonho de padaria", "creme de confeiteiro"],
  ["rosca-de-coco", "Rosca de coco", "coco ralado fresco"],
  ["pao-de-mel", "Pão de mel", "mel de laranjeira"],
  ["biscoito-de-polvilho", "Biscoito de polvilho", "polvilho doce escaldado"],
  ["bolo-de-cenoura", "Bolo de cenoura", "cobertura de chocolate meio amargo"],
  ["pao-integral", "Pão integral", "farinha de centeio"],
  ["cuca-de-banana", "Cuca de banana", "farofa de canela"],
  ["pao-de-batata", "Pão de batata", "batata inglesa cozida"],
  ["quindim", "Quindim", "gemas peneiradas"],
  ["pudim-de-leite", "Pudim de leite", "calda de caramelo"],
  ["empada-de-frango", "Empada de frango", "massa podre amanteigada"],
  ["torta-de-limao", "Torta de limão", "raspas de limão-taiti"],
  ["brioche", "Brioche", "manteiga gelada em cubos"],
  ["focaccia", "Focaccia", "alecrim fresco"],
  ["ciabatta", "Ciabatta", "biga fermentada"],
  ["croissant", "Croissant", "laminação em três dobras"],
  ["pao-de-forma", "Pão de forma", "leite em pó"],
  ["bolo-de-laranja", "Bolo de laranja", "suco de laranja-pera"],
  ["rocambole", "Rocambole", "doce de leite pastoso"],
  ["baguete", "Baguete", "fermento natural levain"],
];

function page(opts: { title: string; lang?: string; main: string; head?: string }): string {
  return `<!doctype html>
<html lang="${opts.lang ?? "pt-BR"}"><head><meta charset="utf-8">
<title>${opts.title} | Padaria Aurora</title>${opts.head ?? ""}</head>
<body>
<header class="site-header"><a class="logo" href="/">Padaria Aurora</a>
<nav><a href="/">Início</a> <a href="/receitas/">Receitas</a> <a href="/sobre">Sobre nós</a> <a href="/contato">Contato</a></nav></header>
<div id="cookie-banner" class="cookie-consent"><p>${
    BOILERPLATE[1]
  }</p><button>Aceitar</button></div>
<main>
${opts.main}
<p class="cta">${BOILERPLATE[2]}</p>
</main>
<footer><p>${BOILERPLATE[3]}</p></footer>
</body></html>`;
}

/** The recipe page of `RECIPES[i]`; `edition` changes its text (1 is the first). */
export function recipePage(i: number, origin: string, edition = 1): string {
  const [slug, name, special] = RECIPES[i];
  const extra = edition > 1
    ? `<p>Atualização ${edition}: agora a receita leva uma pitada de cardamomo moído na massa.</p>`
    : "";
  return page({
    title: name,
    head: `<link rel="canonical" href="${origin}/receitas/${slug}">`,
    main: `<article><h1>${name}</h1>
<p>O ${name.toLowerCase()} da Padaria Aurora é feito todos os dias de madrugada. O segredo desta receita é o uso de ${special}, que dá textura e sabor característicos à massa.</p>
${extra}
<h2>Ingredientes</h2>
<ul><li>500 g de farinha ou base equivalente</li><li>${special}</li><li>2 ovos caipiras</li><li>1 colher de sal marinho</li></ul>
<h2>Modo de preparo</h2>
<p>Misture os ingredientes secos, junte ${special} aos poucos e sove até a massa ficar lisa. Deixe descansar coberta por um pano e depois modele com as mãos levemente untadas.</p>
<p>Asse em forno preaquecido até dourar. O tempo varia conforme o forno, então observe a cor da casca do ${name.toLowerCase()}.</p>
<h2>Dicas da padeira</h2>
<p>Guarde o ${name.toLowerCase()} em recipiente fechado. Para reaquecer, use o forno por poucos minutos em vez do micro-ondas, que deixa a massa borrachuda.</p>
</article>`,
  });
}

/** Every path of the site with its answer. `origin` is the site's own origin. */
export function fixtureSite(origin: string): Map<string, FixtureResponse> {
  const html = (body: string, status = 200): FixtureResponse => ({
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
    body,
  });
  const site = new Map<string, FixtureResponse>();
  RECIPES.forEach(([slug], i) => site.set(`/receitas/${slug}`, html(recipePage(i, origin))));
  site.set(
    "/",
    html(page({
      title: "Início",
      main:
        `<h1>Bem-vindo à Padaria Aurora</h1><p>Somos uma padaria artesanal de bairro que assa pães de fermentação lenta, bolos caseiros e doces mineiros desde 1987, sempre com ingredientes de produtores locais.</p><h2>Horário de funcionamento</h2><p>Abrimos de terça a domingo, das seis da manhã às oito da noite. Às segundas-feiras a padaria fecha para a limpeza dos fornos a lenha.</p>`,
    })),
  );
  site.set(
    "/sobre",
    html(page({
      title: "Sobre nós",
      main:
        `<h1>Sobre nós</h1><p>A Padaria Aurora nasceu no quintal da dona Aurora Menezes, que vendia broas para os vizinhos. Hoje a família mantém o forno a lenha original e treina aprendizes de panificação.</p>`,
    })),
  );
  site.set(
    "/en/about",
    html(page({
      title: "About the bakery",
      lang: "en",
      main:
        `<h1>About the bakery</h1><p>Aurora Bakery is a neighbourhood bakery in Belo Horizonte. We bake slow-fermented sourdough bread and traditional cakes every morning, and we welcome visitors who want to watch the wood-fired oven at work.</p>`,
    })),
  );
  site.set(
    "/privado/precos-internos",
    html(page({
      title: "Preços internos",
      main:
        `<h1>Preços internos</h1><p>Tabela confidencial de margens de lucro por produto da padaria.</p>`,
    })),
  );
  site.set(
    "/rascunho",
    html(page({
      title: "Rascunho",
      head: `<meta name="robots" content="noindex, follow">`,
      main: `<h1>Rascunho</h1><p>Página em construção sobre o panetone trufado sazonal.</p>`,
    })),
  );
  site.set("/antiga", { status: 301, headers: { location: "/receitas/pao-de-queijo" }, body: "" });
  site.set("/cardapio.pdf", {
    headers: { "content-type": "application/pdf" },
    body: "%PDF-1.4 cardápio",
  });
  site.set("/robots.txt", {
    headers: { "content-type": "text/plain" },
    body: "User-agent: *\nDisallow: /privado/\n",
  });
  // Failure cases, listed only by /sitemap-falhas.xml.
  site.set(
    "/grande",
    html(page({ title: "Grande", main: `<h1>Grande</h1><p>${"massa ".repeat(60_000)}</p>` })),
  );
  site.set("/quebrada", {
    headers: { "content-type": "text/html" },
    body: new Uint8Array([0, 159, 146, 150, 0, 1, 2, 3, 255, 254]),
  });
  site.set("/loop-a", { status: 302, headers: { location: "/loop-b" }, body: "" });
  site.set("/loop-b", { status: 302, headers: { location: "/loop-a" }, body: "" });
  return site;
}

/** The pages /sitemap.xml lists (the happy crawl); /sumiu is listed but answers 404. */
export function mainSitemapPaths(): string[] {
  return [
    "/",
    "/sobre",
    "/en/about",
    ...RECIPES.map(([slug]) => `/receitas/${slug}`),
    "/privado/precos-internos",
    "/rascunho",
    "/antiga",
    "/sumiu",
    "/cardapio.pdf",
  ];
}

/** A `<urlset>` of `paths` under `origin`. */
export function urlset(origin: string, paths: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
    paths.map((p) => `  <url><loc>${origin}${p}</loc></url>`).join("\n")
  }\n</urlset>\n`;
}

/** A running fixture site. */
export interface FixtureSite {
  origin: string;
  /** The answers by path; edit it to change the site (sitemaps are built from `listed`). */
  pages: Map<string, FixtureResponse>;
  /** Paths /sitemap.xml lists. */
  listed: string[];
  /** Requests served, by path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** Serves the fixture site on 127.0.0.1 at an OS-chosen port. */
export function startFixtureSite(): FixtureSite {
  const hits = new Map<string, number>();
  const state = { pages: new Map<string, FixtureResponse>(), listed: mainSitemapPaths() };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req): Response => {
    const path = new URL(req.url).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const xml = (body: string) =>
      new Response(body, { headers: { "content-type": "application/xml" } });
    if (path === "/sitemap.xml") return xml(urlset(origin, state.listed));
    if (path === "/sitemap-falhas.xml") {
      return xml(urlset(origin, ["/grande", "/quebrada", "/loop-a", "/receitas/brioche"]));
    }
    if (path === "/sitemap-index.xml") {
      return xml(
        `<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>${origin}/sitemap-falhas.xml</loc></sitemap>
  <sitemap><loc>${origin}/sitemap-nao-existe.xml</loc></sitemap>
</sitemapindex>\n`,
      );
    }
    const answer = state.pages.get(path);
    if (!answer) return new Response("Não encontrado", { status: 404 });
    return new Response(answer.body as BodyInit, {
      status: answer.status ?? 200,
      headers: answer.headers,
    });
  });
  const origin: string = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  for (const [k, v] of fixtureSite(origin)) state.pages.set(k, v);
  return {
    origin,
    pages: state.pages,
    get listed() {
      return state.listed;
    },
    set listed(v: string[]) {
      state.listed = v;
    },
    hits,
    close: () => server.shutdown(),
  };
}
