// The HTML timeline page: CSS and the drawing script around the run's data (see html.h). Everything is
// inline so the file opens from disk with no network. The script builds the SVG from the data (lanes,
// instruction slices, handshake arrows, finding marks, axis) and redraws only what is visible on zoom/pan.
#include <string>

#include "traces/html.h"

namespace cvsim::traces {

namespace {

std::string html_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '<':
                o += "&lt;";
                break;
            case '>':
                o += "&gt;";
                break;
            case '&':
                o += "&amp;";
                break;
            case '"':
                o += "&quot;";
                break;
            default:
                o.push_back(c);
        }
    }
    return o;
}

constexpr const char* kStyle = R"CSS(
body { font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 12px 16px; color: #202124; background: #fff; }
h1 { font-size: 17px; margin: 0 0 2px 0; }
.meta { color: #5f6368; margin-bottom: 6px; }
.meta span { margin-right: 14px; }
.truncated { background: #fff4e5; border: 1px solid #f0a030; padding: 4px 8px; margin: 6px 0; }
.toolbar { margin: 6px 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.toolbar button { font: inherit; padding: 1px 10px; }
.hint { color: #5f6368; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 6px 0 8px 0; align-items: center; }
.legend-item { display: inline-flex; align-items: center; gap: 5px; white-space: nowrap; }
.swatch { width: 14px; height: 10px; display: inline-block; border-radius: 2px; }
#wrap { border: 1px solid #dadce0; overflow: hidden; user-select: none; }
svg.timeline { display: block; cursor: grab; }
svg.timeline.dragging { cursor: grabbing; }
.lane-bg { fill: #fff; }
.lane-bg.odd { fill: #f6f8fa; }
.findings-lane .lane-bg { fill: #fff5f5; }
.lane-label { font-size: 11px; fill: #3c4043; }
.cluster-sep { stroke: #9aa0a6; stroke-width: 1; }
.label-bg { fill: #fff; }
.instr { stroke: #fff; stroke-width: 1; }
.instr.thin { stroke: none; }
.instr:hover { stroke: #000; stroke-width: 1.5; }
.instr-label { font-size: 10px; fill: #111; pointer-events: none; }
.flow { fill: none; stroke-width: 1.4; opacity: 0.85; }
.flow:hover { stroke-width: 3; opacity: 1; }
.finding line { stroke: #d62728; stroke-width: 1.5; }
.finding .finding-mark { fill: #d62728; stroke: #7f0000; }
.finding .finding-link { stroke: #d62728; stroke-width: 1.5; stroke-dasharray: 5 3; fill: none; }
.finding .finding-access { fill: none; stroke: #d62728; stroke-width: 2; }
.finding .finding-label { font-size: 11px; font-weight: 600; fill: #b00000; }
.axis text { font-size: 10px; fill: #5f6368; }
.axis line { stroke: #dadce0; }
#tip { position: fixed; pointer-events: none; background: #202124; color: #fff; padding: 5px 8px; border-radius: 4px;
       font-size: 12px; max-width: 520px; white-space: pre-wrap; display: none; z-index: 10; }
#finding-list li { margin: 2px 0; cursor: pointer; }
#finding-list .code { color: #d62728; font-weight: 600; margin-right: 6px; }
.summary { color: #5f6368; margin-top: 6px; }
path.flow.replay { opacity: 0.55; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
'use strict';
const D = JSON.parse(document.getElementById('cvsim-data').textContent);
const S = D.strings, I = D.instrs;
const NS = 'http://www.w3.org/2000/svg';
// Replay lanes: on a2a3 AIV1 runs AIV0's program again (the lane-1 replay); its rows and handshakes say so.
const REPLAY = {};
for (const [c, core, of] of (D.replays || [])) REPLAY[c + ':' + core] = of;
const replayOf = (c, laneName) => REPLAY[c + ':' + coreOf(laneName)];
const ROW_H = 20, LABEL_W = Object.keys(REPLAY).length ? 206 : 118, AXIS_H = 22, RIGHT = 10;
const PIPE_COLOR = { SCALAR: '#a8adb3', MTE2: '#4e79a7', MTE1: '#76b7b2', CUBE: '#f28e2b', FIXP: '#b07aa1', MTE3: '#59a14f', VECTOR: '#edc948' };
const FLOW_STYLE = [['#1f77b4', ''], ['#8c8c8c', '4 3'], ['#9467bd', ''], ['#222222', '7 2 2 2'], ['#555555', '2 2']];
const coreOf = n => n.split(' ')[0], pipeOf = n => n.split(' ')[1];

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function hel(tag, cls, text, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// ---- header, legend, toolbar ----
const root = document.getElementById('app');
hel('h1', '', D.title, root);
const meta = hel('div', 'meta', undefined, root);
for (const [k, v] of D.meta) hel('span', '', k + ': ' + v, meta);
if (D.clock_ghz > 0) hel('span', '', 'clock: ' + D.clock_ghz + ' GHz', meta);
if (D.dropped > 0) {
  hel('div', 'truncated', 'Truncated: this run had ' + (I.length + D.dropped) + ' instructions; the page draws the first ' +
      I.length + ' (the HTML view keeps at most ' + D.cap + '). The Chrome trace JSON (--trace) holds the whole run.', root);
}
const legend = hel('div', 'legend', undefined, root);
for (const p in PIPE_COLOR) {
  const li = hel('span', 'legend-item', undefined, legend);
  const sw = hel('span', 'swatch', undefined, li); sw.style.background = PIPE_COLOR[p];
  hel('span', '', p, li);
}
D.flow_kinds.forEach((name, k) => {
  if (k === 4) return;
  const li = hel('span', 'legend-item', undefined, legend);
  const s = el('svg', { width: 34, height: 10 }, li);
  el('line', { x1: 1, y1: 5, x2: 27, y2: 5, stroke: FLOW_STYLE[k][0], 'stroke-width': 1.6, 'stroke-dasharray': FLOW_STYLE[k][1] }, s);
  el('path', { d: 'M27,1 L33,5 L27,9 z', fill: FLOW_STYLE[k][0] }, s);
  hel('span', '', name, li);
});
{
  const li = hel('span', 'legend-item', undefined, legend);
  const s = el('svg', { width: 14, height: 12 }, li);
  el('path', { d: 'M1,1 L13,1 L7,11 z', fill: '#d62728' }, s);
  hel('span', '', 'finding (race: dashed links to both accesses)', li);
}
if (Object.keys(REPLAY).length) {
  const li = hel('span', 'legend-item', undefined, legend);
  hel('span', '', 'AIV1 (replay of AIV0): the second vector core runs AIV0\'s program again; its lanes\' arrows are the replay\'s handshakes', li);
}
const bar = hel('div', 'toolbar', undefined, root);
const bFit = hel('button', '', 'Fit', bar), bIn = hel('button', '', 'Zoom in', bar), bOut = hel('button', '', 'Zoom out', bar);
hel('span', 'hint', 'wheel: zoom at the pointer - drag: pan - double-click: fit - hover: op and source line', bar);
const wrap = hel('div', '', undefined, root); wrap.id = 'wrap';
const tip = hel('div', '', undefined, document.body); tip.id = 'tip';

// ---- rows: per cluster a findings row, then every lane of each core that ran ----
const activeCore = {};
for (const it of I) activeCore[it[0] + ':' + coreOf(D.lanes[it[1]])] = true;
for (const f of D.findings) for (const a of f.accesses) if (a.lane >= 0) activeCore[a.cluster + ':' + coreOf(D.lanes[a.lane])] = true;
const rows = [], rowOf = {}, findRow = {}, clusterRows = {};
for (let c = 0; c < D.clusters; c++) {
  const first = rows.length;
  findRow[c] = rows.length; rows.push({ cluster: c, lane: -1, name: 'findings' });
  for (let l = 0; l < D.lanes.length; l++) {
    if (!activeCore[c + ':' + coreOf(D.lanes[l])]) continue;
    const of = replayOf(c, D.lanes[l]);
    rowOf[c + ':' + l] = rows.length;
    rows.push({ cluster: c, lane: l, name: D.lanes[l], label: D.lanes[l] + (of ? ' (replay of ' + of + ')' : '') });
  }
  clusterRows[c] = [first, rows.length - 1];
}
const laneItems = {};
I.forEach((it, i) => { const k = it[0] + ':' + it[1]; (laneItems[k] = laneItems[k] || []).push(i); });

// ---- the SVG ----
const svg = el('svg', { class: 'timeline', id: 'timeline' }, wrap);
const defs = el('defs', {}, svg);
FLOW_STYLE.forEach(([color], k) => {
  const m = el('marker', { id: 'arrow' + k, viewBox: '0 0 8 8', refX: 7, refY: 4, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M0,0 L8,4 L0,8 z', fill: color }, m);
});
const clipRect = el('rect', { x: LABEL_W, y: 0, width: 10, height: 10 }, el('clipPath', { id: 'plot-clip' }, defs));
const gRows = el('g', { class: 'rows' }, svg);
const gPlot = el('g', { 'clip-path': 'url(#plot-clip)' }, svg);
const gItems = el('g', { id: 'items' }, gPlot), gFlows = el('g', { id: 'flows' }, gPlot), gFind = el('g', { id: 'findings' }, gPlot);
const gLabels = el('g', { class: 'labels' }, svg), gAxis = el('g', { class: 'axis' }, svg);

const full = Math.max(D.end, 1);
let W = 0, PW = 0, t0 = 0, t1 = full;
const x = t => LABEL_W + (t - t0) * PW / (t1 - t0);
const rowY = r => AXIS_H + r * ROW_H;
const opShort = s => s.replace(/^(tile|system|tensor)\./, '');

function layout() {
  W = Math.max(wrap.clientWidth || 0, 700);
  PW = W - LABEL_W - RIGHT;
  const H = AXIS_H + rows.length * ROW_H + 2;
  svg.setAttribute('width', W); svg.setAttribute('height', H);
  clipRect.setAttribute('width', PW + RIGHT); clipRect.setAttribute('height', H);
  gRows.textContent = ''; gLabels.textContent = '';
  el('rect', { class: 'label-bg', x: 0, y: 0, width: LABEL_W, height: H }, gLabels);
  rows.forEach((r, i) => {
    const g = el('g', { class: r.lane < 0 ? 'lane findings-lane' : 'lane', 'data-lane': r.name, 'data-cluster': r.cluster }, gRows);
    el('rect', { class: 'lane-bg' + (i % 2 ? ' odd' : ''), x: 0, y: rowY(i), width: W, height: ROW_H }, g);
    const t = el('text', { class: 'lane-label', x: 6, y: rowY(i) + ROW_H * 0.68 }, gLabels);
    t.textContent = (D.clusters > 1 ? 'c' + r.cluster + ' ' : '') + (r.label || r.name);
    if (r.lane < 0 && i > 0) el('line', { class: 'cluster-sep', x1: 0, x2: W, y1: rowY(i), y2: rowY(i) }, gLabels);
  });
}

function niceStep(span) {
  const raw = span / Math.max(PW / 90, 1), p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

function drawAxis() {
  gAxis.textContent = '';
  const step = niceStep(t1 - t0);
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const xt = x(t);
    if (xt < LABEL_W) continue;
    el('line', { x1: xt, x2: xt, y1: AXIS_H - 4, y2: rowY(rows.length) }, gAxis);
    const tx = el('text', { x: xt + 2, y: AXIS_H - 8 }, gAxis); tx.textContent = String(Math.round(t));
  }
  const u = el('text', { x: 6, y: AXIS_H - 8 }, gAxis); u.textContent = 'cycle';
}

function drawItems() {
  gItems.textContent = '';
  for (const key in laneItems) {
    const row = rowOf[key]; if (row === undefined) continue;
    const list = laneItems[key];
    let lo = 0, hi = list.length;
    while (lo < hi) { const m = (lo + hi) >> 1, it = I[list[m]]; if (it[2] + it[3] < t0) lo = m + 1; else hi = m; }
    let end = list.length, a = lo;
    while (a < end) { const m = (a + end) >> 1; if (I[list[m]][2] <= t1) a = m + 1; else end = m; }
    // Few visible slices: draw each. Many (zoomed out on a long run): skip those that add less than a
    // pixel to what is drawn, so the page stays responsive.
    const dense = end - lo > 2000;
    let lastPx = -1e9;
    const y = rowY(row) + 3, h = ROW_H - 6;
    for (let k = lo; k < end; k++) {
      const idx = list[k], it = I[idx];
      const xa = x(it[2]), xb = x(it[2] + it[3]);
      if (dense && xb < lastPx + 1) continue;
      lastPx = Math.max(lastPx, xb);
      const w = Math.max(xb - xa, 3), name = S[it[4]];
      el('rect', { class: w < 6 ? 'instr thin' : 'instr', x: xa.toFixed(1), y: y, width: w.toFixed(1), height: h,
                   fill: PIPE_COLOR[pipeOf(D.lanes[it[1]])] || '#999', 'data-i': idx, 'data-op': name, 'data-line': S[it[5]] }, gItems);
      if (w > 46) {
        const t = el('text', { class: 'instr-label', x: Math.max(xa, LABEL_W) + 3, y: y + h - 4 }, gItems);
        const label = opShort(name);
        t.textContent = label.length * 6 < w - 4 ? label : label.slice(0, Math.max(1, Math.floor((w - 6) / 6))) + '…';
      }
    }
  }
}

function anchorX(i, atEnd) { const it = I[i]; return x(atEnd ? it[2] + it[3] : it[2]); }
function rowCenter(cluster, lane) { const r = rowOf[cluster + ':' + lane]; return r === undefined ? null : rowY(r) + ROW_H / 2; }

function drawFlows() {
  gFlows.textContent = '';
  let n = 0;
  for (const [from, to, kind] of D.flows) {
    const a = I[from], b = I[to];
    const fEnd = a[2] + a[3], tAt = b[2] >= fEnd ? b[2] : b[2] + b[3];
    if (Math.max(fEnd, tAt) < t0 || Math.min(fEnd, tAt) > t1) continue;
    const y1 = rowCenter(a[0], a[1]), y2 = rowCenter(b[0], b[1]);
    if (y1 === null || y2 === null) continue;
    const x1 = x(fEnd), x2 = x(tAt), dx = Math.max(Math.abs(x2 - x1) / 2, 12);
    // A handshake of a replay lane is labelled as the replay's (the replayed core has its own arrow).
    const repLane = [a, b].map(e => [e[0], D.lanes[e[1]]]).find(([c, n]) => replayOf(c, n));
    const replay = repLane ? coreOf(repLane[1]) + ' (replay of ' + replayOf(repLane[0], repLane[1]) + ')' : '';
    el('path', { class: replay ? 'flow replay' : 'flow', 'data-replay': replay, d: `M${x1.toFixed(1)},${y1} C${(x1 + dx).toFixed(1)},${y1} ${(x2 - dx).toFixed(1)},${y2} ${x2.toFixed(1)},${y2}`,
                 stroke: FLOW_STYLE[kind][0], 'stroke-dasharray': FLOW_STYLE[kind][1], 'marker-end': 'url(#arrow' + kind + ')',
                 'data-kind': D.flow_kinds[kind], 'data-from': S[a[4]], 'data-to': S[b[4]],
                 'data-from-line': S[a[5]], 'data-to-line': S[b[5]] }, gFlows);
    if (++n >= 4000) break;
  }
}

function drawFindings() {
  gFind.textContent = '';
  D.findings.forEach((f, fi) => {
    const fr = findRow[f.cluster]; if (fr === undefined) return;
    const xf = x(f.ts), [r0, r1] = clusterRows[f.cluster];
    const g = el('g', { class: 'finding', 'data-code': f.code, 'data-f': fi, 'data-lines': f.accesses.map(a => a.line).join(' ') }, gFind);
    el('line', { x1: xf, x2: xf, y1: rowY(r0), y2: rowY(r1) + ROW_H, 'stroke-opacity': 0.55 }, g);
    el('path', { class: 'finding-mark', d: `M${xf - 7},${rowY(fr) + 2} L${xf + 7},${rowY(fr) + 2} L${xf},${rowY(fr) + ROW_H - 2} z` }, g);
    const right = xf + 10 + f.code.length * 7 > W - RIGHT;  // near the right edge: label on the left
    const label = el('text', { class: 'finding-label', x: right ? xf - 10 : xf + 10, y: rowY(fr) + ROW_H * 0.7,
                               'text-anchor': right ? 'end' : 'start' }, g);
    label.textContent = f.code;
    for (const a of f.accesses) {
      const y = rowCenter(a.cluster, a.lane); if (y === null) continue;
      const xa = a.item >= 0 ? (anchorX(a.item, false) + anchorX(a.item, true)) / 2 : x(a.ts);
      el('circle', { class: 'finding-access', cx: xa, cy: y, r: 7 }, g);
      el('path', { class: 'finding-link', d: `M${xa},${y} L${xf},${rowY(fr) + ROW_H / 2}` }, g);
    }
  });
}

let pending = false;
function render() { pending = false; drawAxis(); drawItems(); drawFlows(); drawFindings(); }
// Redraw at the next frame; the timer covers browsers that throttle frames (background or headless).
function schedule() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { if (pending) render(); });
  setTimeout(() => { if (pending) render(); }, 100);
}
function fit() { const pad = full * 0.01; t0 = -pad; t1 = full + pad; schedule(); }
function zoomAt(tm, factor) {
  let span = (t1 - t0) * factor;
  span = Math.min(Math.max(span, 4), full * 20);
  t0 = tm - (tm - t0) * span / (t1 - t0); t1 = t0 + span; schedule();
}

// ---- interaction ----
svg.addEventListener('wheel', e => {
  e.preventDefault();
  const r = svg.getBoundingClientRect(), mx = e.clientX - r.left;
  const tm = mx < LABEL_W ? (t0 + t1) / 2 : t0 + (mx - LABEL_W) * (t1 - t0) / PW;
  zoomAt(tm, Math.exp(e.deltaY * 0.0015));
}, { passive: false });
let drag = null;
svg.addEventListener('mousedown', e => { if (e.button === 0) { drag = { x: e.clientX, t0, t1 }; svg.classList.add('dragging'); } });
window.addEventListener('mouseup', () => { drag = null; svg.classList.remove('dragging'); });
window.addEventListener('mousemove', e => {
  if (!drag) return;
  const dt = (e.clientX - drag.x) * (drag.t1 - drag.t0) / PW;
  t0 = drag.t0 - dt; t1 = drag.t1 - dt; schedule();
});
svg.addEventListener('dblclick', fit);
bFit.onclick = fit;
bIn.onclick = () => zoomAt((t0 + t1) / 2, 0.5);
bOut.onclick = () => zoomAt((t0 + t1) / 2, 2);
window.addEventListener('resize', () => { layout(); schedule(); });

function tipText(t) {
  if (t.dataset.i !== undefined) {
    const it = I[+t.dataset.i];
    const of = replayOf(it[0], D.lanes[it[1]]);
    let s = S[it[4]] + '\n' + S[it[5]] + '\n' + D.lanes[it[1]] + (of ? ' (replay of ' + of + ')' : '') + (D.clusters > 1 ? ' (cluster ' + it[0] + ')' : '') +
            '\ncycles ' + it[2] + ' - ' + (it[2] + it[3]) + ' (' + it[3] + ')';
    if (it[9]) s += '\nbytes ' + it[9];
    if (it[6]) s += '\nshape ' + S[it[6]];
    if (it[7]) s += '\n' + S[it[7]];
    if (it[8]) s += '\n' + S[it[8]];
    return s;
  }
  if (t.classList.contains('flow'))
    return t.dataset.kind + (t.dataset.replay ? ' of ' + t.dataset.replay : '') + '\n' + t.dataset.from + ' at ' + t.dataset.fromLine +
           '\n-> ' + t.dataset.to + ' at ' + t.dataset.toLine;
  const g = t.closest('.finding');
  if (g) {
    const f = D.findings[+g.dataset.f];
    return f.code + ': ' + f.message + (f.details.length ? '\n' + f.details.join('\n') : '');
  }
  return null;
}
svg.addEventListener('mousemove', e => {
  const s = drag ? null : tipText(e.target);
  if (!s) { tip.style.display = 'none'; return; }
  tip.textContent = s; tip.style.display = 'block';
  const w = tip.offsetWidth, h = tip.offsetHeight;
  tip.style.left = Math.min(e.clientX + 14, window.innerWidth - w - 4) + 'px';
  tip.style.top = Math.min(e.clientY + 14, window.innerHeight - h - 4) + 'px';
});
svg.addEventListener('mouseleave', () => { tip.style.display = 'none'; });

// ---- findings list and summary ----
if (D.findings.length) {
  hel('h2', '', 'Findings', root).style.fontSize = '15px';
  const ol = hel('ol', '', undefined, root); ol.id = 'finding-list';
  D.findings.forEach(f => {
    const li = hel('li', 'finding-item', undefined, ol);
    hel('span', 'code', f.code, li); hel('span', '', f.message, li);
    li.onclick = () => {
      const ts = [f.ts].concat(f.accesses.map(a => a.ts));
      const lo = Math.min(...ts), hi = Math.max(...ts), pad = Math.max((hi - lo) * 0.15, 20);
      t0 = lo - pad; t1 = hi + pad; schedule();
    };
  });
}
hel('div', 'summary', I.length + ' instructions on ' + rows.filter(r => r.lane >= 0).length + ' lanes, ' + D.flows.length +
    ' handshake arrows, ' + D.findings.length + ' finding(s); last cycle ' + D.end + '.', root);

layout();
fit();
render();
})();
)JS";

}  // namespace

std::string html_page(const std::string& title, const std::string& data_json) {
    std::string p;
    p.reserve(data_json.size() + 24000);
    p += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>";
    p += html_escape(title);
    p += "</title>\n<style>";
    p += kStyle;
    p += "</style>\n</head>\n<body>\n<div id=\"app\"></div>\n<script type=\"application/json\" id=\"cvsim-data\">";
    p += data_json;  // strings escaped with html_safe: no "</script>" can appear
    p += "</script>\n<script>";
    p += kScript;
    p += "</script>\n</body>\n</html>\n";
    return p;
}

}  // namespace cvsim::traces
