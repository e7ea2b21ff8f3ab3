/**
 * The artifact panel's strings, Portuguese and English. Apart from pt_br.ts and en.ts
 * so that only the panel's lazy bundle carries them (the first visit does not grow).
 */
import type { Locale } from "./mod.ts";

/** Portuguese. */
export const ptBRArtifact = {
  panelLabel: "Artefato: {title}",
  close: "Fechar",
  tabs: "Vistas do artefato",
  preview: "Visualizar",
  code: "Código",
  diff: "Diferenças",
  version: "Versão",
  versionN: "versão {n}",
  latest: "(mais recente)",
  from: "De",
  to: "Para",
  unified: "Unificado",
  split: "Lado a lado",
  diffMode: "Modo de comparação",
  copy: "Copiar",
  copied: "Copiado",
  download: "Baixar",
  noChanges: "Nenhuma diferença entre estas versões.",
  diffStats: "+{added} −{removed} linhas",
  diffLoading: "Comparando…",
  previewTitle: "Prévia isolada de “{title}”",
  isolated: "Roda isolado: sem acesso à página, aos seus dados nem à rede.",
  oneVersion: "Só há uma versão: peça uma alteração para comparar.",
  oldLine: "linha antiga",
  newLine: "linha nova",
};

/** The panel's string catalog. */
export type ArtifactMessages = typeof ptBRArtifact;

/** English. */
export const enArtifact: ArtifactMessages = {
  panelLabel: "Artifact: {title}",
  close: "Close",
  tabs: "Artifact views",
  preview: "Preview",
  code: "Code",
  diff: "Diff",
  version: "Version",
  versionN: "version {n}",
  latest: "(latest)",
  from: "From",
  to: "To",
  unified: "Unified",
  split: "Side by side",
  diffMode: "Diff mode",
  copy: "Copy",
  copied: "Copied",
  download: "Download",
  noChanges: "No differences between these versions.",
  diffStats: "+{added} −{removed} lines",
  diffLoading: "Comparing…",
  previewTitle: "Isolated preview of “{title}”",
  isolated: "Runs isolated: no access to the page, your data or the network.",
  oneVersion: "There is only one version: ask for a change to compare.",
  oldLine: "old line",
  newLine: "new line",
};

/** The panel's strings in `locale`. */
export function artifactMessages(locale: Locale): ArtifactMessages {
  return locale === "en" ? enArtifact : ptBRArtifact;
}
