import { Plan, PlanCatalog } from '../model/plan';

export class ListPlansUseCase {
  constructor(private readonly catalog: PlanCatalog) {}

  execute(): Plan[] {
    return this.catalog.list();
  }
}
