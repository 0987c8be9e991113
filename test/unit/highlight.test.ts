import { describe, expect, it } from "vitest";
import { escapeHtml, HL_START, HL_STOP, renderHighlight } from "../../api/services/discovery/highlight.ts";

describe("search highlights", () => {
  it("wraps matches in <em>", () => {
    expect(renderHighlight(`Deliver a ${HL_START}parcel${HL_STOP}`)).toBe("Deliver a <em>parcel</em>");
  });
  it("escapes everything else: a title cannot inject markup", () => {
    const h = renderHighlight(`<script>alert("x")</script> & ${HL_START}parcel${HL_STOP} <em>fake</em> 'q'`);
    expect(h).toBe("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; <em>parcel</em> &lt;em&gt;fake&lt;/em&gt; &#39;q&#39;");
    expect(h).not.toMatch(/<(?!\/?em>)/);
  });
  it("escapeHtml covers & < > \" '", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });
});
