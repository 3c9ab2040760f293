// Result tables a reader can see whole (issue 27): let the column names of the
// chapters' pandas tables break after an underscore (pvalue_ holm), so that a
// long name never makes its column wider than the numbers below it. A
// zero-width space is inserted after each underscore of a header cell's text;
// copying the text from the page is unaffected in practice (it is invisible).
document.addEventListener("DOMContentLoaded", () => {
  for (const cell of document.querySelectorAll("div.cell_output table.dataframe thead th")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent.includes("_")) node.textContent = node.textContent.replaceAll("_", "_\u200b");
    }
  }
});
