import { type FormEvent, useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouteLink, useLocation } from 'wouter';
import { createLink, getLink, type Link, listDomains, listTags, updateLink } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { CheckboxGroup, fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';
import { Page } from '../../components/page';
import { ErrorState, Loading } from '../../components/states';
import {
  createBody,
  DEVICES,
  emptyLinkForm,
  formProblems,
  type LinkFormValues,
  linkFormOf,
  REDIRECT_TYPES,
  type RedirectType,
  updateBody,
  UTM_KEYS,
} from './link-form-values';
import { LINKS } from './links-page';
import './links.css';

/** At most this many country targets in the form (each a row). */
const MAX_COUNTRIES = 50;
const DEVICE_LABELS = { ios: 'iPhone and iPad', android: 'Android', desktop: 'Desktop' } as const;

export function NewLinkPage() {
  return <LinkForm />;
}

export function EditLinkPage({ params }: { params: { id: string } }) {
  const link = useQuery({ queryKey: [...LINKS, 'one', params.id], queryFn: () => answer(getLink({ client, path: { id: params.id } })) });
  if (link.isPending) return <Loading what="Loading the link" />;
  if (link.isError) return <ErrorState error={link.error} retry={() => void link.refetch()} />;
  return <LinkForm link={link.data.data} />;
}

/** The fields every form of a link shows, with the API's message for each under it. */
function LinkForm({ link }: { link?: Link }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<LinkFormValues>(() => (link ? linkFormOf(link) : emptyLinkForm()));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const set = <K extends keyof LinkFormValues>(key: K, value: LinkFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const id = useId();

  const tags = useQuery({ queryKey: ['tags', 'for-links'], queryFn: () => answer(listTags({ client, query: { limit: 100 } })) });
  const domains = useQuery({ queryKey: ['domains', 'for-links'], queryFn: () => answer(listDomains({ client, query: { limit: 100 } })) });

  const save = useMutation({
    mutationFn: () =>
      link
        ? answer(updateLink({ client, path: { id: link.id }, body: updateBody(values, link) }))
        : answer(createLink({ client, body: createBody(values) })),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: LINKS });
      navigate(`/links/${saved.data.id}`);
    },
  });
  const errors = { ...fieldErrors(save.error), ...problems };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = formProblems(values);
    setProblems(found);
    if (!Object.keys(found).length) save.mutate();
  };
  // Every error of a field the form has is shown beside it (nested ones, targets.device.ios, under theirs).
  const fields = [
    'url',
    'slug',
    'title',
    'description',
    'domainId',
    'isFavorite',
    'hasPassword',
    'password',
    'expiresAt',
    'expiredUrl',
    'maxVisits',
    'redirectType',
    'targets',
    'utm',
    'tags',
  ];
  const shown = Object.keys(errors).filter((name) => fields.includes(name.split('.')[0]));
  const verified = (domains.data?.data ?? []).filter((d) => d.isVerified);
  const title = link ? `Edit ${link.title || link.slug}` : 'New link';

  return (
    <Page
      title={title}
      intro={
        link ? (
          <>
            Changes apply to <code>{link.shortUrl}</code> at once.
          </>
        ) : (
          'Only the destination is needed; everything else is optional.'
        )
      }
    >
      <form className="card" onSubmit={submit} noValidate aria-label={title}>
        <TextField
          label="Destination URL"
          name="url"
          type="url"
          required
          value={values.url}
          onChange={(e) => set('url', e.target.value)}
          error={errors['url']}
          hint="Where visitors go: an http or https address."
        />
        <TextField
          label="Slug (optional)"
          name="slug"
          value={values.slug}
          onChange={(e) => set('slug', e.target.value)}
          error={errors['slug']}
          hint="The short URL's path: letters, digits, - and _. Left empty, one is made up."
          maxLength={64}
        />
        <TextField
          label="Title (optional)"
          name="title"
          value={values.title}
          onChange={(e) => set('title', e.target.value)}
          error={errors['title']}
        />
        <div className={`field${errors['description'] ? ' field-invalid' : ''}`}>
          <label htmlFor={`${id}-description`}>Description (optional)</label>
          <textarea
            id={`${id}-description`}
            name="description"
            value={values.description}
            onChange={(e) => set('description', e.target.value)}
            aria-invalid={errors['description'] ? true : undefined}
            aria-describedby={errors['description'] ? `${id}-description-error` : undefined}
          />
          {errors['description'] && (
            <p className="field-error" id={`${id}-description-error`}>
              {errors['description']}
            </p>
          )}
        </div>
        <div className={`field${errors['domainId'] ? ' field-invalid' : ''}`}>
          <label htmlFor={`${id}-domain`}>Domain</label>
          <select
            id={`${id}-domain`}
            name="domainId"
            value={values.domainId}
            onChange={(e) => set('domainId', e.target.value)}
            aria-invalid={errors['domainId'] ? true : undefined}
            aria-describedby={errors['domainId'] ? `${id}-domain-error` : undefined}
          >
            <option value="">The service&apos;s short domain</option>
            {verified.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
            {values.domainId && !verified.some((d) => d.id === values.domainId) && (
              <option value={values.domainId}>The link&apos;s current domain</option>
            )}
          </select>
          {errors['domainId'] && (
            <p className="field-error" id={`${id}-domain-error`}>
              {errors['domainId']}
            </p>
          )}
        </div>
        <label className="checkbox field">
          <input type="checkbox" name="status" checked={values.status} onChange={(e) => set('status', e.target.checked)} />
          On: the short URL answers (off, it answers 404)
        </label>
        <label className="checkbox field">
          <input type="checkbox" name="isFavorite" checked={values.isFavorite} onChange={(e) => set('isFavorite', e.target.checked)} />
          Favourite (starred in the list, and shown by its favourites filter)
        </label>

        <fieldset className="form-section">
          <legend>Password</legend>
          <label className="checkbox field">
            <input type="checkbox" name="hasPassword" checked={values.hasPassword} onChange={(e) => set('hasPassword', e.target.checked)} />
            Visitors must type a password
          </label>
          {values.hasPassword && (
            <TextField
              label={link?.hasPassword ? 'New password (empty keeps the current one)' : 'Password'}
              name="password"
              type="password"
              autoComplete="new-password"
              value={values.password}
              onChange={(e) => set('password', e.target.value)}
              error={errors['password'] ?? errors['hasPassword']}
              hint="8 to 72 characters."
            />
          )}
        </fieldset>

        <fieldset className="form-section">
          <legend>Expiry</legend>
          <TextField
            label="Expires at (optional)"
            name="expiresAt"
            type="datetime-local"
            value={values.expiresAt}
            onChange={(e) => set('expiresAt', e.target.value)}
            error={errors['expiresAt']}
            hint="In your time zone. After it, the link sends visitors to the address below, or answers that it expired."
          />
          <TextField
            label="Once expired, send visitors to (optional)"
            name="expiredUrl"
            type="url"
            value={values.expiredUrl}
            onChange={(e) => set('expiredUrl', e.target.value)}
            error={errors['expiredUrl']}
          />
          <TextField
            label="Visit limit (optional)"
            name="maxVisits"
            inputMode="numeric"
            value={values.maxVisits}
            onChange={(e) => set('maxVisits', e.target.value)}
            error={errors['maxVisits']}
            hint={
              link?.maxVisits !== undefined
                ? `${link.visitsUsed ?? 0} used so far. The link expires after this many visits.`
                : 'The link expires after this many visits.'
            }
          />
        </fieldset>

        <fieldset className="form-section">
          <legend>Redirect</legend>
          <div className={`field${errors['redirectType'] ? ' field-invalid' : ''}`}>
            <label htmlFor={`${id}-redirect`}>Redirect type</label>
            <select
              id={`${id}-redirect`}
              name="redirectType"
              value={values.redirectType}
              onChange={(e) => set('redirectType', Number(e.target.value) as RedirectType)}
            >
              {REDIRECT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                  {type === 302
                    ? ' (temporary, the default)'
                    : type === 301
                      ? ' (permanent: browsers may skip the count)'
                      : type === 308
                        ? ' (permanent, keeps the method)'
                        : ' (temporary, keeps the method)'}
                </option>
              ))}
            </select>
            {errors['redirectType'] && <p className="field-error">{errors['redirectType']}</p>}
          </div>
        </fieldset>

        <fieldset className="form-section">
          <legend>Targets by device and country (optional)</legend>
          {errors['targets'] &&
            !DEVICES.some((d) => errors[`targets.device.${d}`]) &&
            !values.countries.some((c) => errors[`targets.country.${c.country.trim().toUpperCase()}`]) && (
              <p className="field-error">{errors['targets']}</p>
            )}
          {DEVICES.map((device) => (
            <TextField
              key={device}
              label={`${DEVICE_LABELS[device]} visitors go to`}
              name={`targets.device.${device}`}
              type="url"
              value={values.devices[device]}
              onChange={(e) => set('devices', { ...values.devices, [device]: e.target.value })}
              error={errors[`targets.device.${device}`]}
            />
          ))}
          {values.countries.map((row, i) => (
            <div className="country-row" key={i}>
              <TextField
                label="Country code"
                name={`country-${i}`}
                value={row.country}
                maxLength={2}
                onChange={(e) =>
                  set(
                    'countries',
                    values.countries.map((c, j) => (j === i ? { ...c, country: e.target.value } : c)),
                  )
                }
                hint="GB, DE, US…"
              />
              <TextField
                label="Its visitors go to"
                name={`country-url-${i}`}
                type="url"
                value={row.url}
                onChange={(e) =>
                  set(
                    'countries',
                    values.countries.map((c, j) => (j === i ? { ...c, url: e.target.value } : c)),
                  )
                }
                error={errors[`targets.country.${row.country.trim().toUpperCase()}`]}
              />
              <button
                type="button"
                className="country-remove"
                onClick={() =>
                  set(
                    'countries',
                    values.countries.filter((_, j) => j !== i),
                  )
                }
                aria-label={`Remove the target of ${row.country || 'this country'}`}
              >
                Remove
              </button>
            </div>
          ))}
          {values.countries.length < MAX_COUNTRIES && (
            <button type="button" onClick={() => set('countries', [...values.countries, { country: '', url: '' }])}>
              Add a country target
            </button>
          )}
        </fieldset>

        <fieldset className="form-section">
          <legend>UTM values added to the destination (optional)</legend>
          {errors['utm'] && !UTM_KEYS.some((k) => errors[`utm.${k}`]) && <p className="field-error">{errors['utm']}</p>}
          {UTM_KEYS.map((key) => (
            <TextField
              key={key}
              label={`utm_${key}`}
              name={`utm.${key}`}
              value={values.utm[key]}
              onChange={(e) => set('utm', { ...values.utm, [key]: e.target.value })}
              error={errors[`utm.${key}`]}
            />
          ))}
        </fieldset>

        {tags.data && tags.data.data.length > 0 ? (
          <CheckboxGroup
            legend="Tags"
            name="tags"
            options={tags.data.data.map((t) => ({ value: t.id, label: t.name }))}
            value={values.tagIds}
            onChange={(v) => set('tagIds', v)}
            error={errors['tags']}
          />
        ) : (
          <p className="field-hint">{tags.isPending ? 'Loading your tags…' : 'No tags yet: tag links from the list once they exist.'}</p>
        )}

        <FormError error={save.error} shown={shown} />
        <div className="buttons">
          <SubmitButton busy={save.isPending} busyLabel="Saving…">
            {link ? 'Save changes' : 'Create link'}
          </SubmitButton>
          <RouteLink href={link ? `/links/${link.id}` : '/links'} className="button">
            Cancel
          </RouteLink>
        </div>
      </form>
    </Page>
  );
}
