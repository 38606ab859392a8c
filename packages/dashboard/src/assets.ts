// The stylesheet and the one small script, served as files so the CSP can forbid inline code.

/** `GET …/assets/dashboard.css` */
export const STYLESHEET = `
:root{--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;--link:#0a53be;--focus:#0a53be}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:1}
header.top{display:flex;gap:16px;align-items:center;padding:8px 20px;border-bottom:1px solid var(--line);background:var(--soft)}
header.top .brand{font-weight:700;text-decoration:none;color:var(--fg)}
header.top .who{margin-left:auto;color:var(--muted)}
nav.project ul{display:flex;flex-wrap:wrap;gap:4px 16px;list-style:none;margin:0;padding:8px 20px;border-bottom:1px solid var(--line)}
nav.project a[aria-current=page]{font-weight:700;color:var(--fg)}
main{padding:16px 20px;max-width:1200px}
h1{font-size:1.5rem;margin:.2em 0 .6em}h2{font-size:1.15rem;margin:1.4em 0 .5em}
table{border-collapse:collapse;width:100%;margin:.5em 0}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;background:var(--soft)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 8px;border-radius:10px;font-size:.85em;font-weight:600;border:1px solid currentColor}
.s-ok,.s-resolved{color:#116329;background:#dafbe1}.s-error,.s-unresolved,.s-fatal{color:#a40e26;background:#ffebe9}
.s-missed,.s-ignored,.s-warn,.s-warning{color:#6c4400;background:#fff8c5}
.rate{padding:0 4px;border-radius:4px;font-weight:600}
form.inline{display:inline}
form.filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:end;margin:.5em 0 1em}
form.filters label,form.filters .field,form.stack label{display:flex;flex-direction:column;font-size:.9em;color:var(--muted)}
form.filters fieldset label{flex-direction:row;gap:4px;align-items:center}
form.filters label.wide{flex:1 1 24em}
details.search-help{margin:-.5em 0 1em;font-size:.9em}
details.search-help table{width:auto}
form.stack{display:flex;flex-direction:column;gap:10px;max-width:420px}
input,select,button,textarea{font:inherit;padding:4px 8px;border:1px solid #6e7781;border-radius:6px;background:#fff;color:var(--fg)}
button{cursor:pointer;background:var(--soft)}
button.danger{color:#a40e26}
.empty,.notice{border:1px solid var(--line);border-radius:8px;padding:12px 16px;background:var(--soft)}
.alert{border:1px solid #a40e26;color:#a40e26;border-radius:8px;padding:8px 12px;background:#ffebe9}
pre,code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:var(--soft);padding:10px;border-radius:6px;overflow:auto;white-space:pre-wrap;word-break:break-all}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
svg.chart text{font:11px system-ui,sans-serif;fill:var(--fg)}
.actions{white-space:nowrap}
th.pick,td.pick{width:1%;padding-right:0}
form.bulk{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-start;margin:.5em 0;padding:8px 12px;border:1px solid var(--line);border-radius:8px;background:var(--soft)}
form.bulk[hidden]{display:none}
form.bulk p,form.bulk .alert,form.bulk .notice{margin:0;flex:1 1 100%}
fieldset.scope,fieldset.ignore-choices{border:0;padding:0;margin:0}fieldset.scope legend{font-weight:600;float:left;margin-right:8px}
.bulk-actions{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start}
details.menu>summary{cursor:pointer;display:inline-block;padding:4px 8px;border:1px solid #6e7781;border-radius:6px;background:var(--soft)}
details.menu[open]{padding:0 0 8px}details.menu[open]>summary{margin-bottom:6px}
fieldset.ignore-choices legend{font-weight:600}fieldset.ignore-choices .choice{margin:4px 0}
input.n{width:8em}
.issue-actions{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start;margin:.5em 0 1em}
ol.frames>li{margin:.4em 0}
.excerpt table{margin:.3em 0 .8em;background:var(--soft);border:1px solid var(--line)}
.excerpt caption{text-align:left;padding:4px 8px;caption-side:top}
.excerpt th.ln{width:1%;text-align:right;color:var(--muted);font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:none;border:0;padding:0 8px}
.excerpt td{border:0;padding:0 8px}.excerpt td code{white-space:pre-wrap;word-break:break-all}
.excerpt tr.hit{background:#fff8c5;box-shadow:inset 3px 0 #a40e26}.excerpt tr.hit th,.excerpt tr.hit td{font-weight:700;color:var(--fg)}
.pager{margin:1em 0}
.frame-switch a[aria-current=true]{font-weight:700;color:var(--fg);text-decoration:none}
.sent-as,.map-problem{margin:.1em 0 .3em;font-size:.9em}.map-problem{color:#6c4400}
ul.ids{list-style:none;margin:0;padding:0}
li.library>details>summary,td details>summary{cursor:pointer;color:var(--muted)}ol.frames li.not-in-app>code{color:var(--muted)}
mark.filtered{background:#ddf4ff;color:#0a3069;border:1px dashed #54aeff;border-radius:4px;padding:0 3px;font-style:italic}
details.vars{margin:.2em 0 .5em}details.vars>summary{cursor:pointer;color:var(--muted);font-size:.9em}
details.vars table{width:auto;min-width:40%;margin:.3em 0}details.vars th,details.vars td{padding:2px 8px}
details.vars td code{white-space:pre-wrap;word-break:break-all}
`

/**
 * `GET …/assets/dashboard.js` — progressive only: copy buttons, issue actions without a reload,
 * the bulk bar's "select all" and count, and live regions (the inbox, the activity feed) that poll their HTML fragment and announce
 * new issues. Every page works without it.
 */
export const SCRIPT = `(() => {
  // The bulk bar: "select all on this page", the count of the checked rows, Enter in a menu's
  // fields submitting with the menu's button (and nowhere else in the bar).
  const picks = () => [...document.querySelectorAll('[data-pick]')]
  const counted = () => {
    const all = picks(), checked = all.filter((p) => p.checked).length
    for (const box of document.querySelectorAll('[data-pick-all]')) {
      box.checked = all.length > 0 && checked === all.length
      box.indeterminate = checked > 0 && checked < all.length
    }
    for (const out of document.querySelectorAll('[data-bulk-count]')) {
      out.textContent = checked ? '(' + checked + ' selected)' : ''
    }
  }
  document.addEventListener('change', (event) => {
    if (event.target.matches('[data-pick-all]')) for (const p of picks()) p.checked = event.target.checked
    if (event.target.matches('[data-pick], [data-pick-all]')) counted()
  })
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !event.target.matches('input')) return
    const menu = event.target.closest('[data-enter-submits]')
    if (menu) { event.preventDefault(); document.getElementById(menu.dataset.enterSubmits)?.click() }
    else if (event.target.form?.matches('[data-bulk]')) event.preventDefault()
  })
  counted()
  document.addEventListener('click', (event) => {
    const button = event.target.closest('[data-copy]')
    if (!button) return
    const source = document.getElementById(button.dataset.copy)
    if (source && navigator.clipboard) {
      navigator.clipboard.writeText(source.textContent.trim()).then(() => { button.textContent = 'Copied' }, () => {})
    }
  })
  document.addEventListener('submit', async (event) => {
    const form = event.target
    if (!form.matches('form[data-inplace]')) return
    event.preventDefault()
    const row = form.closest('[data-row]')
    try {
      const response = await fetch(form.action, {
        method: 'POST', body: new URLSearchParams(new FormData(form, event.submitter)),
        headers: { 'x-tis-fragment': '1' }, credentials: 'same-origin',
      })
      if (!response.ok || response.redirected) { form.submit(); return }
      const holder = document.createElement('tbody')
      holder.innerHTML = await response.text()
      const next = holder.firstElementChild
      if (row && next) {
        for (const cell of next.querySelectorAll('[data-keep]')) {
          const kept = row.querySelector('[data-keep="' + cell.dataset.keep + '"]')
          if (kept && !cell.firstElementChild) cell.replaceWith(kept)
        }
        row.replaceWith(next); next.querySelector('button')?.focus(); counted()
      }
      const status = document.getElementById('status-message')
      if (status) status.textContent = form.dataset.done || 'Updated'
    } catch { form.submit() }
  })
  const ids = (region) => new Set([...region.querySelectorAll('[data-row]')].map((r) => r.dataset.row))
  for (const region of document.querySelectorAll('[data-live]')) {
    const every = Number(region.dataset.every || 5000)
    setInterval(async () => {
      // Never pull the rows from under the keyboard, a pending in-place action or a selection.
      if (document.hidden || region.contains(document.activeElement)) return
      if (region.querySelector('[data-pick]:checked')) return
      try {
        const response = await fetch(region.dataset.live, { credentials: 'same-origin' })
        if (!response.ok || response.redirected) return
        const before = ids(region)
        region.innerHTML = await response.text()
        counted()
        const table = region.closest('[data-live-table]')
        if (table && region.children.length) {
          table.hidden = false
          for (const bar of document.querySelectorAll('form[data-bulk]')) bar.hidden = false
          for (const note of document.querySelectorAll('[data-empty-note]')) note.hidden = true
        }
        const added = [...ids(region)].filter((id) => !before.has(id)).length
        const status = document.getElementById('status-message')
        if (added && status && region.dataset.announce) {
          status.textContent = added + ' new ' + (added === 1 ? 'issue' : 'issues')
        }
      } catch {}
    }, every)
  }
})()
`
