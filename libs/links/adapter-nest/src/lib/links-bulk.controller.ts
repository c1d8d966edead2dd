import { Body, Controller, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  BulkCreated,
  BulkCreateLinksUseCase,
  BulkDeleteLinksUseCase,
  BulkTagLinksUseCase,
  ExportLinksUseCase,
  ImportLinksUseCase,
  LinkFields,
  LinkView,
} from '@lnk/links/domain';
import { type Caller, checkedItem, CurrentPrincipal, list, ok, Route } from '@lnk/shared/http';
import { CreateLinkDto } from './links.request.dto';
import { BulkCreateLinksDto, BulkLinkIdsDto, BulkTagLinksDto, ExportQueryDto } from './links-bulk.request.dto';
import { BulkCreatedSchema, BulkOutcomeSchema, ImportReportSchema } from './links-bulk.schemas';
import { csvRows, EXPORT_COLUMNS, IMPORT_BODY_LIMIT, IMPORT_LINE_LIMIT, ndjsonRows, readImportCsv } from './link-csv';
import { creationMessage, skipsByReason } from './links-bulk.messages';
import { presentLink } from './links.presenter';
import { CurrentScheme, type RequestScheme, ShortUrlBases } from './short-url-base';

const CSV = 'text/csv';
const NDJSON = 'application/x-ndjson';

/** Many links at once (issue 18): bulk create, delete and tagging, import from CSV and export. */
@Controller('user/link')
export class LinksBulkController {
  constructor(
    private readonly bulkCreateLinks: BulkCreateLinksUseCase,
    private readonly bulkDeleteLinks: BulkDeleteLinksUseCase,
    private readonly bulkTagLinks: BulkTagLinksUseCase,
    private readonly importLinks: ImportLinksUseCase,
    private readonly exportLinks: ExportLinksUseCase,
    private readonly bases: ShortUrlBases,
  ) {}

  @Route('POST', 'bulk', {
    operationId: 'createLinks',
    idempotent: 'replays',
    scope: 'links:write',
    answers: list(BulkCreatedSchema),
    summary: 'Create up to 100 links',
    description:
      'Each link as the body of POST /user/link, checked by the same rules. Answers, in request order, each created link or its ' +
      'errors ({name, error} as in VALIDATION_ERROR; a slug repeated in the request or taken already is an error on slug). ' +
      'The links that pass are written together: if they do not all fit in your links quota, none is written (403 QUOTA_EXCEEDED). ' +
      'When some were not created, the message says how many and why ("2 created, 3 skipped: 2 invalid, 1 duplicate_slug").',
  })
  async bulkCreate(@CurrentPrincipal() caller: Caller, @Body() body: BulkCreateLinksDto, @CurrentScheme() scheme: RequestScheme) {
    // Each item by CreateLinkDto's type rules on its own: a bad one is answered in its place.
    const checked = await Promise.all(body.links.map((item) => checkedItem(CreateLinkDto, item)));
    const valid = checked.flatMap((c, i) => ('value' in c ? [{ i, fields: c.value as LinkFields }] : []));
    const created = valid.length
      ? await this.bulkCreateLinks.execute(
          caller.userId,
          valid.map((v) => v.fields),
        )
      : [];
    const results: BulkCreated[] = checked.map((c) => ({ errors: 'errors' in c ? c.errors : [], reason: 'invalid' }));
    valid.forEach((v, n) => (results[v.i] = created[n]));
    const message = creationMessage(results.length - results.filter((r) => 'errors' in r).length, skipsByReason(results), 'Links created');
    const base = this.bases.of(scheme);
    return ok(
      results.map((r) =>
        'view' in r ? { outcome: 'created' as const, ...presentLink(r.view, base) } : { outcome: 'refused' as const, errors: r.errors },
      ),
      message,
    );
  }

  @Route('DELETE', 'bulk', {
    operationId: 'deleteLinks',
    scope: 'links:write',
    answers: list(BulkOutcomeSchema),
    summary: 'Delete up to 100 links',
    description:
      'Deletes those of your links among ids, and answers for each id, in request order, whether it named one of yours: any ' +
      "other id (unknown, or another account's) is found: false and nothing is done to it. Their short URLs stop answering at " +
      'once.',
  })
  async bulkDelete(@CurrentPrincipal() caller: Caller, @Body() body: BulkLinkIdsDto) {
    return ok(await this.bulkDeleteLinks.execute(caller.userId, body.ids), 'Links deleted');
  }

  @Route('POST', 'bulk/tags', {
    operationId: 'tagLinks',
    scope: 'links:write',
    answers: list(BulkOutcomeSchema),
    summary: 'Tag or untag up to 100 links',
    description:
      'Puts the tags named in add on, and takes those named in remove off, each of your links among ids (by ' +
      'name, whatever the case; an added name that is none of your tags becomes a new tag). Answers for each ' +
      'id, in request order, whether it named one of yours; the others are not touched.',
  })
  async bulkTags(@CurrentPrincipal() caller: Caller, @Body() body: BulkTagLinksDto) {
    return ok(await this.bulkTagLinks.execute(caller.userId, body), 'Links tagged');
  }

  @Route('POST', 'import', {
    operationId: 'importLinks',
    idempotent: 'replays',
    scope: 'links:write',
    answers: ImportReportSchema,
    errors: { 400: 'json', 413: 'json' },
    summary: 'Import links from CSV',
    description:
      `A text/csv body of at most ${IMPORT_BODY_LIMIT / 1024 / 1024} MB and ` +
      `${IMPORT_LINE_LIMIT.toLocaleString('en')} lines of links, UTF-8 (more: 400, nothing ` +
      'imported). The first line names the columns: url, slug, title, description, tags (names ' +
      'separated by |); ' +
      "Bitly's export (long_url, link, custom_links, title, tags) and Shlink's (longUrl, shortCode, " +
      "shortUrl, title, tags) are read as well. Links go to the service's short domain. " +
      'Answers how many were created, how many lines were skipped in all and for each reason: invalid ' +
      '(with its errors), duplicate_slug (in the file or taken already), quota (past what your links or ' +
      'tags quota leaves: once the quota is used up, the remaining lines are not checked); ' +
      'the first 100 skipped lines are listed with their line number, reason and errors. When ' +
      'lines were skipped, the message says so ("96 created, 904 skipped: quota").',
  })
  @ApiConsumes(CSV)
  @ApiBody({ schema: { type: 'string', example: 'url,slug,title,tags\nhttps://example.com/a,spring-a,Spring A,campaign|spring\n' } })
  async import(@CurrentPrincipal() caller: Caller, @Req() request: FastifyRequest) {
    const report = await this.importLinks.execute(caller.userId, readImportCsv(request.body));
    return ok(report, creationMessage(report.created, report.skippedByReason, 'Links imported'));
  }

  @Route('GET', 'export', {
    operationId: 'exportLinks',
    scope: 'links:read',
    raw: {
      [CSV]: { type: 'string', description: `Columns ${EXPORT_COLUMNS.join(', ')}` },
      [NDJSON]: { type: 'string', description: 'One link per line, as GET /user/link/{id} presents it' },
    },
    errors: { 400: 'json' },
    summary: 'Export every link',
    description:
      'Every link of yours with its tags and clicks, oldest first, as an attachment: format=csv (the ' +
      'default; columns an import reads back, cells a spreadsheet would run as a formula prefixed with an ' +
      'apostrophe) or format=json (NDJSON: one link object per line). Streamed as it is read.',
  })
  async export(
    @CurrentPrincipal() caller: Caller,
    @Query() query: ExportQueryDto,
    @Res() reply: FastifyReply,
    @CurrentScheme() scheme: RequestScheme,
  ) {
    const format = query.format ?? 'csv';
    const batches = this.exportLinks.execute(caller.userId);
    // The first batch is read before the answer starts: a failure there is still an error envelope.
    const first = await batches.next();
    const base = this.bases.of(scheme);
    async function* body(): AsyncGenerator<string> {
      try {
        if (format === 'csv') yield csvRows(first.done ? [] : first.value, base, true);
        else if (!first.done) yield ndjsonRows(first.value, base);
        if (first.done) return;
        for (let step = await batches.next(); !step.done; step = await batches.next()) {
          yield format === 'csv' ? csvRows(step.value as LinkView[], base, false) : ndjsonRows(step.value as LinkView[], base);
        }
      } finally {
        await batches.return(undefined);
      }
    }
    // Readable.from reads the next batch only when the socket has taken the one before (backpressure).
    void reply
      .code(200)
      .header('content-type', format === 'csv' ? `${CSV}; charset=utf-8` : `${NDJSON}; charset=utf-8`)
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="links.${format === 'csv' ? 'csv' : 'ndjson'}"`)
      .send(Readable.from(body(), { highWaterMark: 1 }));
  }
}
