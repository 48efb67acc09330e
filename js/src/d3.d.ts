/** The D3 modules the viewer uses (selection, transition, zoom …), bundled. */
export const d3: any;
