import type { OutputRequest } from './outputs.js';
import { pdfOptionsSchema, screenshotOptionsSchema } from './output-options.js';

/** The outputs `/v1/web/page` and the jobs name as strings; the others take options as an object. */
export const NAMED_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images', 'metadata', 'screenshot', 'pdf'] as const;

export type Format = (typeof NAMED_FORMATS)[number] | { type: string; [option: string]: unknown };

/** The outputs a list of formats asks for; `metadata` comes with every answer. */
export function toOutputRequest(formats: Format[], selection: OutputRequest['markdown'] & object): OutputRequest {
  const outputs: OutputRequest = {};
  for (const format of formats) {
    const { type, ...options } = typeof format === 'string' ? { type: format } : format;
    if (type === 'markdown') outputs.markdown = selection;
    else if (type === 'html') outputs.html = selection;
    else if (type === 'rawHtml') outputs.rawHtml = true;
    else if (type === 'links') outputs.links = true;
    else if (type === 'images') outputs.images = true;
    else if (type === 'screenshot') {
      const { imageType, ...rest } = options;
      outputs.screenshot = screenshotOptionsSchema.parse(imageType === undefined ? rest : { ...rest, type: imageType });
    }
    else if (type === 'pdf') outputs.pdf = pdfOptionsSchema.parse(options);
    else if (type === 'scrape') outputs.scrape = options as Required<OutputRequest>['scrape'];
    else if (type === 'json') outputs.json = options as unknown as Required<OutputRequest>['json'];
  }
  return outputs;
}
