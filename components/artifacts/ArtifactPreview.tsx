import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { buildSandboxDoc, DOCUMENT_MESSAGE, readSizeMessage } from "@/lib/artifacts/sandbox_doc.ts";
import type { ArtifactVersion } from "@/lib/artifacts/types.ts";

/** Props of {@linkcode ArtifactPreview}. */
export interface ArtifactPreviewProps {
  version: ArtifactVersion;
  /** Accessible name of the frame or image. */
  label: string;
  /** The separate origin artifacts are served from (`ARTIFACT_ORIGIN`), or null for `srcdoc`. */
  artifactOrigin: string | null;
  /** The page's CSP nonce, which a `srcdoc` frame's scripts need (it inherits the page's policy). */
  nonce: string | null;
}

/** A data: URL of an SVG, for an `<img>`: an image runs no script and loads nothing. */
export function svgDataUrl(content: string): string {
  return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(content);
}

/**
 * The running artifact. SVG is an image. HTML is a frame sandboxed with `allow-scripts`
 * only (never `allow-same-origin`: its origin is opaque, so it reaches neither the page
 * nor its cookies or storage), whose document starts with the artifact CSP. The page
 * accepts one kind of message from it — its height — and only from that very frame.
 */
export function ArtifactPreview({ version, label, artifactOrigin, nonce }: ArtifactPreviewProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState<number | null>(null);
  // Built once per version: parsing a large artifact takes a while, and every height the frame
  // reports renders again (without the page's nonce, each build would make a new one, and a new
  // `srcdoc` reloads the frame).
  const srcdoc = useMemo(
    () =>
      version.kind === "html" && !artifactOrigin
        ? buildSandboxDoc(version.content, { nonce: nonce ?? undefined })
        : "",
    [version.kind, version.content, artifactOrigin, nonce],
  );
  useEffect(() => {
    setHeight(null);
    const onMessage = (e: MessageEvent) => {
      if (!frame.current || e.source !== frame.current.contentWindow) return;
      const reported = readSizeMessage(e.data);
      if (reported !== null) setHeight(reported);
    };
    addEventListener("message", onMessage);
    return () => removeEventListener("message", onMessage);
  }, [version.toolCallId]);

  if (version.kind === "svg") {
    return (
      <div class="artifact-preview artifact-preview-svg">
        <img src={svgDataUrl(version.content)} alt={label} />
      </div>
    );
  }
  const style = height === null ? undefined : { height: `${Math.max(height, 160)}px` };
  if (artifactOrigin) {
    const src = `${artifactOrigin}/artifact/frame?parent=${encodeURIComponent(location.origin)}`;
    // The frame's page takes the document once, from this page's origin, on its first load.
    let sent = false;
    const onLoad = () => {
      if (sent || !frame.current?.contentWindow) return;
      sent = true;
      frame.current.contentWindow.postMessage(
        { type: DOCUMENT_MESSAGE, html: buildSandboxDoc(version.content) },
        // The sandboxed frame's origin is opaque ("null"): no origin can name it.
        "*",
      );
    };
    return (
      <div class="artifact-preview">
        <iframe
          key={version.toolCallId}
          ref={frame}
          class="artifact-frame"
          sandbox="allow-scripts"
          src={src}
          title={label}
          referrerpolicy="no-referrer"
          style={style}
          onLoad={onLoad}
        />
      </div>
    );
  }
  return (
    <div class="artifact-preview">
      <iframe
        key={version.toolCallId}
        ref={frame}
        class="artifact-frame"
        sandbox="allow-scripts"
        srcdoc={srcdoc}
        title={label}
        referrerpolicy="no-referrer"
        style={style}
      />
    </div>
  );
}
